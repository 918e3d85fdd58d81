package db

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cluster is a private PostgreSQL server run from the machine's server binaries, listening
// only on a Unix socket inside its data folder. The service uses it when no DATABASE_URL is
// given, and tests use a throwaway one per test binary.
type Cluster struct {
	Dir    string // data folder (PGDATA)
	binDir string
	cred   *syscall.Credential
	opts   ClusterOptions

	mu       sync.Mutex
	proc     *serverProc // the running server; nil when attached to another's
	stopping bool
	halt     chan struct{} // closed by Stop: no more restarts
	// supervised is closed when supervision ends; nil when the cluster is not supervised.
	supervised chan struct{}
}

// serverProc is one run of the server process.
type serverProc struct {
	cmd     *exec.Cmd
	started time.Time
	exited  chan struct{} // closed when the process has ended and been reaped
	err     error         // its exit, valid once exited is closed
}

// ClusterOptions tune a private cluster.
type ClusterOptions struct {
	// Ephemeral trades durability for speed (fsync off); only for throwaway test clusters.
	Ephemeral bool
	// Log receives the server's output; nil discards it.
	Log *os.File
	// Attach lets a command-line tool use the server of a service already running on the
	// same folder instead of failing on its lock.
	Attach bool
	// Supervise restarts the server when it exits without being asked to (killed,
	// crashed), with back-off, reporting each exit and restart to Logger.
	Supervise bool
	Logger    *slog.Logger
}

// socketPort names the socket file; nothing listens on TCP, so any number works.
const socketPort = 5432

// StartCluster initialises dir on first use, starts the server and waits until it accepts
// connections. Stop it with Stop.
func StartCluster(ctx context.Context, dir string, opts ClusterOptions) (*Cluster, error) {
	c, err := newCluster(dir, opts)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		if err := c.initdb(ctx); err != nil {
			return nil, err
		}
	}
	return c, c.run(ctx)
}

// newCluster finds the server binaries and prepares the data folder dir for them.
func newCluster(dir string, opts ClusterOptions) (*Cluster, error) {
	binDir, err := FindServerBinaries()
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	// A Unix socket path is limited to 107 bytes by the kernel.
	if sock := filepath.Join(dir, ".s.PGSQL."+strconv.Itoa(socketPort)); len(sock) > 100 {
		return nil, fmt.Errorf("data folder %s is too deep for a PostgreSQL Unix socket (path %d bytes, limit 100): use a shorter PONTE_DATA_DIR", dir, len(sock))
	}
	c := &Cluster{Dir: dir, binDir: binDir, opts: opts, halt: make(chan struct{})}
	if err := c.prepareOwner(); err != nil {
		return nil, err
	}
	return c, nil
}

// run starts the server of an initialised folder (or attaches to a running one, when asked)
// and supervises it when asked.
func (c *Cluster) run(ctx context.Context) error {
	if c.opts.Attach && c.running(ctx) {
		return nil
	}
	p, err := c.launch(ctx)
	if err != nil {
		return err
	}
	if c.opts.Supervise {
		c.supervised = make(chan struct{})
		go c.supervise(p)
	}
	return nil
}

// launch starts the server once what remains of an earlier one is gone and waits until it
// answers; one that never answers is ended, so the next attempt starts clean.
func (c *Cluster) launch(ctx context.Context) (*serverProc, error) {
	// The lock file first: a server some other process started meanwhile is not an orphan.
	if err := c.waitStaleServer(ctx); err != nil {
		return nil, err
	}
	if err := c.waitOrphans(ctx); err != nil {
		return nil, err
	}
	p, err := c.start()
	if err != nil {
		return nil, err
	}
	if err := c.waitReady(ctx, p); err != nil {
		// Not answering (or stopping): end it, so the next attempt starts clean.
		_ = p.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
		return nil, err
	}
	return p, nil
}

// FindServerBinaries looks for initdb and postgres on PATH, then in the Debian layout
// /usr/lib/postgresql/<version>/bin, newest version first.
func FindServerBinaries() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		dir := filepath.Dir(p)
		if _, err := os.Stat(filepath.Join(dir, "postgres")); err == nil {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("no PostgreSQL server binaries found (looked for initdb and postgres on PATH and in /usr/lib/postgresql/*/bin): " +
		"install them (Debian/Ubuntu: apt-get install postgresql) or set DATABASE_URL to an existing server")
}

func versionOf(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// prepareOwner creates the data folder. PostgreSQL refuses to run as root, so when we are
// root the folder is handed to the unprivileged "postgres" user, and the server runs as it.
func (c *Cluster) prepareOwner() error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return err
	}
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("running as root, PostgreSQL must run as an unprivileged user, and user \"postgres\" does not exist: create it or set DATABASE_URL")
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	// The server must be able to reach its folder through every parent.
	for p := filepath.Dir(c.Dir); p != "/"; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		if st.Mode().Perm()&0o001 == 0 {
			if err := os.Chmod(p, st.Mode().Perm()|0o011); err != nil {
				return fmt.Errorf("make %s traversable for the postgres user: %w", p, err)
			}
		}
	}
	return chownTree(c.Dir, uid, gid)
}

// chownTree hands everything under dir to uid:gid. Files come and go under the walk: a
// server of a killed run may still be shutting down (it removes its lock file last), and
// an operator command walks the folder of the service's running server (WAL segments,
// statistics). One that is gone needs no owner; failing on it made about half the starts
// right after a kill -9 of the service fail (issue 34).
func chownTree(dir string, uid, gid int) error {
	return filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err == nil {
			err = os.Lchown(p, uid, gid)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	})
}

func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	path := name
	if !filepath.IsAbs(name) {
		path = filepath.Join(c.binDir, name)
	}
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	// Its own process group: a terminal's Ctrl-C goes to the service's group, and the service
	// stops its cluster itself (Stop) after the requests and jobs that use it. Sharing the
	// group, the server got the SIGINT too, quit under them, and the supervisor brought it
	// back for the last second of the shutdown, logging errors on the way.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred, Setpgid: true}
	return cmd
}

func (c *Cluster) initdb(ctx context.Context) error {
	cmd := c.command("initdb", "-D", c.Dir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("initdb %s: %w: %s", c.Dir, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// running reports a server of another process answering on the folder's socket.
func (c *Cluster) running(ctx context.Context) bool {
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return false
	}
	_ = conn.Close(ctx)
	return true
}

// Attached reports that another process's server answers on the folder (StartCluster with
// Attach found it running), so Stop leaves it running.
func (c *Cluster) Attached() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.proc == nil
}

// EnsureDatabase creates database name if it does not exist.
func (c *Cluster) EnsureDatabase(ctx context.Context, name string) error {
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	return err
}

var errStopping = errors.New("the cluster is stopping")

func (c *Cluster) start() (*serverProc, error) {
	args := []string{"-D", c.Dir, "-k", c.Dir, "-p", strconv.Itoa(socketPort),
		"-c", "listen_addresses=", "-c", "max_connections=200", "-c", "shared_buffers=128MB"}
	if c.opts.Ephemeral {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	p := &serverProc{cmd: c.command("postgres", args...), exited: make(chan struct{})}
	// If this process dies without stopping the server (kill -9), the kernel sends the server
	// SIGINT (fast shutdown) so no orphan keeps the data folder.
	p.cmd.SysProcAttr.Pdeathsig = syscall.SIGINT
	if c.opts.Log != nil {
		p.cmd.Stdout, p.cmd.Stderr = c.opts.Log, c.opts.Log
	}
	// Under the lock, so that Stop either sees this server and stops it, or this start sees
	// Stop and does not happen.
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopping {
		return nil, errStopping
	}
	started := make(chan error, 1)
	// Pdeathsig fires when the starting OS thread exits, not the process, so the thread
	// that starts the server stays locked and alive until the server ends.
	go func() {
		runtime.LockOSThread()
		if err := p.cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	p.started = time.Now()
	c.proc = p
	return p, nil
}

func (c *Cluster) waitReady(ctx context.Context, p *serverProc) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		conn, err := pgx.Connect(ctx, c.URL("postgres"))
		if err == nil {
			_ = conn.Close(ctx)
			return nil
		}
		select {
		case <-p.exited:
			return fmt.Errorf("postgres exited during start-up (%v); see its log", p.err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not accept connections within 60s: %w", err)
		}
	}
}

// URL is a connection URL for database name over the cluster's Unix socket.
func (c *Cluster) URL(database string) string {
	q := url.Values{"host": {c.Dir}, "port": {strconv.Itoa(socketPort)}, "sslmode": {"disable"}}
	return "postgres://postgres@/" + url.PathEscape(database) + "?" + q.Encode()
}

// Stop shuts the server down (fast mode: open transactions roll back) and waits for it;
// a supervised cluster is not restarted afterwards.
func (c *Cluster) Stop() error {
	c.mu.Lock()
	if c.stopping {
		c.mu.Unlock()
		return nil
	}
	c.stopping = true
	close(c.halt)
	p := c.proc
	c.mu.Unlock()
	var err error
	if p != nil {
		_ = p.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-p.exited:
		case <-time.After(30 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.exited
			err = errors.New("postgres did not stop within 30s and was killed")
		}
	}
	if c.supervised != nil {
		<-c.supervised
	}
	return err
}
