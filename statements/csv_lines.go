package statements

import (
	"errors"
	"io"
	"sort"
	"strings"
)

// The line handling under ParseCSV: bounds, blank runs, and the line numbers errors name.

// maxLine is the longest line read. A statement row is a few hundred bytes; a line of
// millions of delimiters would make encoding/csv build a record of millions of fields.
const maxLine = 64 << 10

// longLine is the number of the first line over maxLine, or 0.
func longLine(text string) int {
	n := 1
	for off := 0; off < len(text); n++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			i = len(text) - off
		}
		if i > maxLine {
			return n
		}
		off += i + 1
	}
	return 0
}

// linesWithText calls f with each line that is not blank (without its end), its
// 1-based number and its offset; f returns false to stop. Runs of blank lines are
// counted, not visited, so ten million of them cost a few milliseconds.
func linesWithText(text string, f func(line string, n, offset int) bool) {
	n, off := 0, 0
	for off < len(text) {
		start := blankRunEnd(text, off)
		n += strings.Count(text[off:start], "\n")
		if off = start; off >= len(text) {
			return
		}
		next := nextLine(text, off)
		n++
		if !f(strings.TrimRight(text[off:next], "\r\n"), n, off) {
			return
		}
		off = next
	}
}

// blankRunEnd is, from a line start, the start of the first line with text (or the end).
func blankRunEnd(text string, off int) int {
	start := off
	for i := off; i < len(text); i++ {
		switch text[i] {
		case '\n':
			start = i + 1
		case ' ', '\t', '\r':
		default:
			return start
		}
	}
	return len(text)
}

// skipper gives encoding/csv the rows after the header without their runs of blank
// lines (which it would skip one read at a time), and maps the lines it reports back to
// the file's. Blank lines inside a quoted field go too: only whitespace is lost, and
// descriptions collapse whitespace anyway.
type skipper struct {
	text    string
	off     int
	out     int // newlines handed out
	atStart bool
	drops   []drop
	// record counts the bytes handed out since the last record was read: a quote that
	// never closes would have encoding/csv gather the rest of the file into one field.
	record int
}

// maxRecord is the most a record may span, quoted newlines and all.
const maxRecord = 4 * maxLine

// errRecordTooLong is the skipper's refusal of a record over maxRecord.
var errRecordTooLong = errors.New("record too long")

// drop says that from the handed-out line at on, total file lines were left out.
type drop struct{ at, total int }

func newSkipper(text string) *skipper { return &skipper{text: text, atStart: true} }

func (s *skipper) Read(b []byte) (int, error) {
	if s.record > maxRecord {
		return 0, errRecordTooLong
	}
	n := 0
	for n < len(b) && s.off < len(s.text) {
		if s.atStart {
			if start := blankRunEnd(s.text, s.off); start > s.off {
				total := strings.Count(s.text[s.off:start], "\n")
				if len(s.drops) > 0 {
					total += s.drops[len(s.drops)-1].total
				}
				s.drops = append(s.drops, drop{at: s.out + 1, total: total})
				if s.off = start; s.off >= len(s.text) {
					break
				}
			}
		}
		end := min(nextLine(s.text, s.off), s.off+len(b)-n)
		c := copy(b[n:], s.text[s.off:end])
		n += c
		s.off += c
		s.atStart = s.text[s.off-1] == '\n'
		if s.atStart {
			s.out++
		}
	}
	if n == 0 {
		return 0, io.EOF
	}
	s.record += n
	return n, nil
}

// line is the file line (counted from the skipper's start) of a handed-out line.
func (s *skipper) line(l int) int {
	i := sort.Search(len(s.drops), func(i int) bool { return s.drops[i].at > l })
	if i == 0 {
		return l
	}
	return l + s.drops[i-1].total
}

// nextLine is the offset of the line after the one starting at off.
func nextLine(text string, off int) int {
	if i := strings.IndexByte(text[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(text)
}
