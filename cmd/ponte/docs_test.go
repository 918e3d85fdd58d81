package main_test

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The README is the path a newcomer reads top to bottom; reference belongs in docs/.
func TestREADMELength(t *testing.T) {
	t.Parallel()
	const most = 420
	if n := strings.Count(readDoc(t, "README.md"), "\n"); n > most {
		t.Fatalf("README.md has %d lines, at most %d: move reference material to a page of docs/ and link it", n, most)
	}
}

var (
	fenceRE      = regexp.MustCompile("(?ms)^```.*?^```")
	inlineCodeRE = regexp.MustCompile("`[^`\n]*`")
	linkRE       = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	headingRE    = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
)

// anchors gives the anchors GitHub makes of a Markdown file's headings: lower case, every
// character but letters, digits, spaces, hyphens and underscores dropped, spaces made
// hyphens, and -1, -2... added to repeats.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, m := range headingRE.FindAllStringSubmatch(fenceRE.ReplaceAllString(text, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a] = n + 1
			a += "-" + strconv.Itoa(n)
		} else {
			seen[a] = 1
		}
		out[a] = true
	}
	return out
}

// Every relative link of the README and of docs/ reaches a file of the repository, and the
// heading its #anchor names.
func TestDocsLinks(t *testing.T) {
	t.Parallel()
	links := 0
	for _, file := range docFiles(t) {
		text := inlineCodeRE.ReplaceAllString(fenceRE.ReplaceAllString(readDoc(t, file), ""), "")
		for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if regexp.MustCompile(`^[a-z]+:`).MatchString(target) {
				continue // another site's address
			}
			links++
			name, anchor, _ := strings.Cut(target, "#")
			resolved := file
			if name != "" {
				resolved = path.Clean(path.Join(path.Dir(file), name))
				if strings.HasPrefix(resolved, "../") {
					t.Errorf("%s: %s leaves the repository", file, target)
					continue
				}
				if _, err := os.Stat("../../" + resolved); err != nil {
					t.Errorf("%s: %s names no file (%s)", file, target, resolved)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(resolved, ".md") {
				t.Errorf("%s: %s has an anchor on a file that is not Markdown", file, target)
			} else if !anchors(readDoc(t, resolved))[anchor] {
				t.Errorf("%s: %s names no heading of %s", file, target, resolved)
			}
		}
	}
	if links < 30 {
		t.Fatalf("found only %d relative links: is the link pattern still right?", links)
	}
}

// goCmdRE finds a go command written as inline code.
var goCmdRE = regexp.MustCompile("`(go (?:build|install|run|test|vet) [^`]*)`")

// Every go command the README and docs/ show names what exists: its packages are folders
// of Go code, and the benchmark, fuzz target or test it selects is declared in its package.
// Every shell block that TestREADMEWalkThrough does not run must show go commands only, so
// a block of calls to the service cannot be added where nothing runs it.
func TestDocsGoCommands(t *testing.T) {
	t.Parallel()
	run := map[string]bool{}
	for _, w := range walked {
		for _, b := range shBlocks(t, w.file, w.section) {
			run[b] = true
		}
	}
	checked := 0
	for _, file := range docFiles(t) {
		text := readDoc(t, file)
		for _, m := range shBlockRE.FindAllStringSubmatch(text, -1) {
			if run[m[1]] {
				continue
			}
			for _, line := range strings.Split(m[1], "\n") {
				line = strings.TrimSpace(line)
				if line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				if !strings.HasPrefix(line, "go ") {
					t.Errorf("%s: a shell block that TestREADMEWalkThrough does not run shows %q: add the block to walked, or show go commands only", file, line)
					continue
				}
				checkGoCommand(t, file, line)
				checked++
			}
		}
		for _, m := range goCmdRE.FindAllStringSubmatch(fenceRE.ReplaceAllString(text, ""), -1) {
			checkGoCommand(t, file, m[1])
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d go commands: are the patterns still right?", checked)
	}
}

// goWords splits a command line as the shell would for these commands: words, single
// quotes, and a comment from # to the end.
func goWords(line string) []string {
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			w.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == '#' && !inWord:
			return words
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

var declaredRE = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)\w*)\(`)

func checkGoCommand(t *testing.T, file, line string) {
	t.Helper()
	words := goWords(line)
	valued := map[string]bool{"-bench": true, "-fuzz": true, "-run": true, "-benchtime": true, "-fuzztime": true,
		"-timeout": true, "-tags": true, "-o": true, "-count": true, "-cpuprofile": true}
	selects := map[string]string{} // -bench, -fuzz, -run: the pattern
	var pkgs []string
	for i := 2; i < len(words); i++ {
		word := words[i]
		switch {
		case strings.HasPrefix(word, "-"):
			name, value, ok := strings.Cut(word, "=")
			if !ok && valued[name] && i+1 < len(words) {
				i++
				value = words[i]
			}
			if name == "-bench" || name == "-fuzz" || name == "-run" {
				selects[name] = value
			}
		case strings.HasPrefix(word, "./"):
			pkgs = append(pkgs, word)
		}
	}
	var declared []string
	for _, pkg := range pkgs {
		if pkg == "./..." {
			continue
		}
		dir := "../../" + strings.TrimSuffix(pkg, "/")
		goFiles, _ := filepath.Glob(dir + "/*.go")
		if len(goFiles) == 0 {
			t.Errorf("%s: %q: %s is no package of the module", file, line, pkg)
			continue
		}
		for _, f := range goFiles {
			if strings.HasSuffix(f, "_test.go") {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range declaredRE.FindAllStringSubmatch(string(b), -1) {
					declared = append(declared, m[1])
				}
			}
		}
	}
	if len(pkgs) != 1 || pkgs[0] == "./..." {
		return // a whole-module run, or a mention of a flag: nothing names one function
	}
	kinds := map[string]string{"-bench": "Benchmark", "-fuzz": "Fuzz", "-run": "Test"}
	for flag, pattern := range selects {
		if pattern == "" || pattern == "^$" {
			continue
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			t.Errorf("%s: %q: %s %q does not compile: %v", file, line, flag, pattern, err)
			continue
		}
		found := false
		for _, name := range declared {
			if strings.HasPrefix(name, kinds[flag]) && re.MatchString(name) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: %q: no %s function of %s matches %s %q", file, line, kinds[flag], pkgs[0], flag, pattern)
		}
	}
}
