package sandbox

import (
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// EgressAddr is where a program started with ProcSpec.Egress finds the
// way out, inside its own network namespace.
const EgressAddr = "127.0.0.1:3128"

// listenEgress brings up loopback in the child's fresh network namespace
// (nothing else is there) and listens on EgressAddr. It runs while the
// child still holds its capabilities in the namespace, before seccomp.
func listenEgress() (net.Listener, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("egress: loopback: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return nil, fmt.Errorf("egress: loopback: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return nil, fmt.Errorf("egress: loopback: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return nil, fmt.Errorf("egress: loopback up: %w", err)
	}
	ln, err := net.Listen("tcp4", EgressAddr)
	if err != nil {
		return nil, fmt.Errorf("egress: %w", err)
	}
	return ln, nil
}

// superviseProgram is the child's life when the program has an egress:
// instead of becoming the program it starts it (with descriptors 0-2
// only), hands every connection to the egress listener to the parent
// over sock, and reaps every process that ends up its child until the
// program exits, with whose status it exits (128+signal if a signal ended
// it).
func superviseProgram(cfg childConfig, ln net.Listener, sock *os.File) int {
	proc, err := os.StartProcess(cfg.Path, cfg.Args, &os.ProcAttr{Env: cfg.Env, Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}})
	if err != nil {
		fmt.Fprintf(os.Stderr, "sandbox: exec %s: %v\n", cfg.Path, err)
		return 127
	}
	go handOver(ln, sock)
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, 0, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 125
		}
		if pid != proc.Pid {
			continue
		}
		if ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ws.ExitStatus()
	}
}

// handOver sends each accepted connection's descriptor to the parent. It
// ends with the child; a connection it cannot pass is closed.
func handOver(ln net.Listener, sock *os.File) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		raw, err := c.(*net.TCPConn).SyscallConn()
		if err == nil {
			raw.Control(func(fd uintptr) {
				err = unix.Sendmsg(int(sock.Fd()), []byte{0}, unix.UnixRights(int(fd)), nil, 0)
			})
		}
		c.Close()
		if err != nil {
			return
		}
	}
}
