package jiguangsandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

const startTimeout = 60 * time.Second

// listening is the line the sandbox prints once it listens (written whatever LOG_LEVEL says).
var listening = regexp.MustCompile(`jiguang-sandbox listening on (https?://[^\s"]+)`)

// Options say where the sandbox of a run comes from; OptionsFromEnv reads them.
type Options struct {
	URL     string // a running sandbox: nothing is started or stopped
	Image   string // the Docker image to run when Docker answers (jiguang-sandbox:<Version>, else :latest)
	Command string // the command that starts one, split on spaces ("npx --yes jiguang-sandbox")
}

// OptionsFromEnv reads JIGUANG_SANDBOX_URL, JIGUANG_SANDBOX_IMAGE and JIGUANG_SANDBOX_COMMAND.
func OptionsFromEnv() Options {
	return Options{
		URL:     strings.TrimSpace(os.Getenv("JIGUANG_SANDBOX_URL")),
		Image:   strings.TrimSpace(os.Getenv("JIGUANG_SANDBOX_IMAGE")),
		Command: strings.TrimSpace(os.Getenv("JIGUANG_SANDBOX_COMMAND")),
	}
}

// Server is the sandbox of a test run (clients-contract "Where the sandbox comes from"):
//
//  1. Options.URL set: that one (nothing started, nothing stopped);
//  2. else a Docker CLI that answers `docker info` and the image present locally: `docker run -d
//     --rm -p 127.0.0.1::8080`, stopped with `docker stop`;
//  3. else Options.Command (`npx --yes jiguang-sandbox` when empty) with `--port 0 --db :memory:`,
//     its address read from the line it prints when it listens, stopped by Close (and, on Linux,
//     when the test binary ends however it ends).
//
// Each is ready once GET /_sandbox/ready answers 200. A sandbox whose major.minor differs from
// Version is used with a warning.
type Server struct {
	url       string
	origin    string
	container string

	cmd    *exec.Cmd
	exited chan struct{} // closed once the process has ended
	output *lastLines

	closeOnce sync.Once
	closeErr  error
}

// Start finds or starts the sandbox as opts say.
func Start(ctx context.Context, opts Options) (*Server, error) {
	var s *Server
	var err error
	switch {
	case opts.URL != "":
		s = &Server{url: strings.TrimRight(opts.URL, "/"), origin: "JIGUANG_SANDBOX_URL"}
		err = s.awaitReady(ctx)
	default:
		if image := dockerImage(ctx, opts.Image); image != "" {
			s, err = runContainer(ctx, image)
		} else {
			s, err = runCommand(ctx, opts.Command)
		}
	}
	if err != nil {
		if s != nil {
			s.Close()
		}
		return nil, err
	}
	s.warnOnVersion(ctx)
	return s, nil
}

// URL is the sandbox's base URL: JSMS /v1, JPush /v3, the control plane /_sandbox.
func (s *Server) URL() string { return s.url }

// Origin says where it came from: JIGUANG_SANDBOX_URL, the image it runs, or its command.
func (s *Server) Origin() string { return s.origin }

// NewApp is a client of a new app of its own on this sandbox.
func (s *Server) NewApp(ctx context.Context) (*Client, error) { return CreateApp(ctx, s.url) }

// Close stops what Start started (nothing for a given URL).
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		if s.cmd != nil && s.cmd.Process != nil {
			s.closeErr = s.stopProcess()
		}
		if s.container != "" {
			if out, err := run(context.Background(), 30*time.Second, "docker", "stop", s.container); err != nil {
				s.closeErr = fmt.Errorf("docker stop %s: %v: %s", s.container, err, out)
			}
		}
	})
	return s.closeErr
}

func (s *Server) String() string { return fmt.Sprintf("the sandbox at %s (%s)", s.url, s.origin) }

func (s *Server) stopProcess() error {
	select {
	case <-s.exited:
		return nil
	default:
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		s.cmd.Process.Kill() // where there is no SIGTERM
	}
	select {
	case <-s.exited:
		return nil
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
		return errors.New("the sandbox did not stop within 10 s of SIGTERM: killed")
	}
}

// dockerImage is the image to run: the one asked for, else jiguang-sandbox:<Version>, else
// :latest, when Docker answers and has it; "" otherwise.
func dockerImage(ctx context.Context, wanted string) string {
	if _, err := run(ctx, 15*time.Second, "docker", "info"); err != nil {
		return ""
	}
	candidates := []string{"jiguang-sandbox:" + Version, "jiguang-sandbox:latest"}
	if wanted != "" {
		candidates = []string{wanted}
	}
	for _, image := range candidates {
		if _, err := run(ctx, 15*time.Second, "docker", "image", "inspect", image); err == nil {
			return image
		}
	}
	return ""
}

func runContainer(ctx context.Context, image string) (*Server, error) {
	out, err := run(ctx, 60*time.Second, "docker", "run", "-d", "--rm", "-p", "127.0.0.1::8080", image)
	if err != nil {
		return nil, fmt.Errorf("docker run %s: %v: %s", image, err, out)
	}
	id := strings.TrimSpace(out)
	s := &Server{origin: "docker image " + image, container: id}
	port, err := run(ctx, 15*time.Second, "docker", "port", id, "8080")
	if err != nil || strings.TrimSpace(port) == "" {
		return s, fmt.Errorf("docker port %s 8080: %v: %s", id, err, port)
	}
	// "127.0.0.1:49153", one line per address family
	s.url = "http://" + strings.TrimSpace(strings.Split(strings.TrimSpace(port), "\n")[0])
	return s, s.awaitReady(ctx)
}

func runCommand(ctx context.Context, command string) (*Server, error) {
	if command == "" {
		command = "npx --yes jiguang-sandbox"
	}
	fields := strings.Fields(command)
	args := append(fields[1:], "--port", "0", "--db", ":memory:")
	shown := strings.Join(append(fields[:1:1], args...), " ")
	cmd := exec.Command(fields[0], args...)
	cmd.Env = os.Environ()
	if os.Getenv("LOG_LEVEL") == "" {
		// the line it prints when it listens is written whatever the level: the rest is not needed
		cmd.Env = append(cmd.Env, "LOG_LEVEL=warn")
	}
	dieWithParent(cmd)
	read, write, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = write, write
	s := &Server{origin: "`" + shown + "`", cmd: cmd, exited: make(chan struct{}), output: &lastLines{}}

	// Started from a goroutine that keeps its OS thread until the process ends: on Linux the
	// kernel signals the child when the thread that started it exits (dieWithParent).
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			close(s.exited)
			return
		}
		started <- nil
		cmd.Wait()
		close(s.exited)
	}()
	err = <-started
	write.Close()
	if err != nil {
		read.Close()
		return nil, fmt.Errorf("could not start the sandbox with `%s` (set JIGUANG_SANDBOX_URL to use a running one, or JIGUANG_SANDBOX_COMMAND): %w", shown, err)
	}

	found := make(chan string, 1)
	go s.output.drain(read, found)
	select {
	case url := <-found:
		s.url = strings.TrimRight(url, "/")
	case <-s.exited:
		s.output.wait()
		return s, fmt.Errorf("`%s` exited with %v before it listened; its output:\n%s", shown, s.cmd.ProcessState, s.output)
	case <-time.After(startTimeout):
		return s, fmt.Errorf("`%s` did not say where it listens within %v; its output:\n%s", shown, startTimeout, s.output)
	case <-ctx.Done():
		return s, ctx.Err()
	}
	return s, s.awaitReady(ctx)
}

func (s *Server) awaitReady(ctx context.Context) error {
	deadline := time.Now().Add(startTimeout)
	client := &http.Client{Timeout: 5 * time.Second}
	last := "no answer"
	for time.Now().Before(deadline) {
		if s.exited != nil {
			select {
			case <-s.exited:
				s.output.wait()
				return fmt.Errorf("the sandbox (%s) exited with %v; its output:\n%s", s.origin, s.cmd.ProcessState, s.output)
			default:
			}
		}
		req, err := http.NewRequestWithContext(ctx, "GET", s.url+"/_sandbox/ready", nil)
		if err != nil {
			return err
		}
		res, err := client.Do(req)
		if err == nil {
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
			last = fmt.Sprintf("HTTP %d %s", res.StatusCode, body)
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s/_sandbox/ready did not answer 200 within %v: %s", s.url, startTimeout, last)
}

func (s *Server) warnOnVersion(ctx context.Context) {
	var info struct {
		Version string `json:"version"`
	}
	if err := NewClient(s.url, "", "").call(ctx, "GET", "/_sandbox/info", nil, nil, 0, &info); err != nil {
		fmt.Fprintf(os.Stderr, "jiguang-sandbox: could not read %s/_sandbox/info: %v\n", s.url, err)
		return
	}
	if info.Version != "" && majorMinor(info.Version) != majorMinor(Version) {
		fmt.Fprintf(os.Stderr, "jiguang-sandbox: the sandbox at %s is version %s, this client %s: calls may not mean the same\n", s.url, info.Version, Version)
	}
}

// lastLines reads the child's output to its end (so it never blocks on a full pipe), keeping the
// last 50 lines for an error message.
type lastLines struct {
	mu    sync.Mutex
	lines []string
	done  chan struct{}
	once  sync.Once
}

func (l *lastLines) doneChan() chan struct{} {
	l.once.Do(func() { l.done = make(chan struct{}) })
	return l.done
}

func (l *lastLines) drain(r io.ReadCloser, found chan<- string) {
	defer close(l.doneChan())
	defer r.Close()
	reader := bufio.NewReader(r)
	sent := false
	for {
		line, err := reader.ReadString('\n')
		if line != "" {
			line = strings.TrimRight(line, "\r\n")
			l.mu.Lock()
			l.lines = append(l.lines, line)
			if len(l.lines) > 50 {
				l.lines = l.lines[1:]
			}
			l.mu.Unlock()
			if m := listening.FindStringSubmatch(line); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
		if err != nil {
			return
		}
	}
}

// wait waits a little for the output of a process that ended to be read.
func (l *lastLines) wait() {
	select {
	case <-l.doneChan():
	case <-time.After(2 * time.Second):
	}
}

func (l *lastLines) String() string {
	if l == nil {
		return "(nothing)"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.lines) == 0 {
		return "(nothing)"
	}
	return strings.Join(l.lines, "\n")
}

// run runs a short command, returning its output.
func run(ctx context.Context, timeout time.Duration, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	return string(out), err
}
