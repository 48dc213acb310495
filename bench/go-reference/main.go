// The reference server bench:strategies measures every strategy against: Go's
// net/http with one os/exec per request, the way a Go developer would write it.
// Same contract as the strategies: every request runs the command once (argv,
// no shell) and answers 200 with its stdout; a command that cannot start
// answers 500 with the error. It listens on 127.0.0.1 on a free port, prints
// {"spawnbench":"ready","port":N} and exits when its stdin closes, so it never
// outlives the bench that started it.
//
// With --hello instead of a command it spawns nothing and answers "hi\n" (the
// echo workload's bytes) at once: the fast responder bench:generator loads, so
// the load generator, not the server, is what the figures measure.
//
// Usage: go-reference <command> [args...] | go-reference --hello
package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go-reference <command> [args...]")
		os.Exit(2)
	}
	command, args := os.Args[1], os.Args[2:]

	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	hello := []byte("hi\n")
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if command == "--hello" {
			w.Header().Set("Content-Type", "text/plain")
			w.Write(hello)
			return
		}
		out, err := exec.Command(command, args...).Output()
		var exitErr *exec.ExitError
		if err != nil && !errors.As(err, &exitErr) {
			// The command did not start: 500 with why. A non-zero exit still
			// answers its stdout, as the strategies do.
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(out)
	})
	fmt.Printf("{\"spawnbench\":\"ready\",\"port\":%d}\n", listener.Addr().(*net.TCPAddr).Port)
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	if err := http.Serve(listener, handler); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
