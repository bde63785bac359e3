// The network benchmarks' Go servers (io.gmp4j.bench.net.NetBench): an echo server, a chat
// server and a TCP proxy, each the way a Go programmer writes one. Run as `gmp4jbench
// echo-server`, `gmp4jbench chat-server` or `gmp4jbench proxy-server <upstream-port>` with
// GOMAXPROCS from the environment: the server listens on a free port of 127.0.0.1, prints
// "@listening port=N" and serves until its standard input ends.

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
)

// serve listens, starts accept in a goroutine (each connection handled by handle), prints
// the port and returns when stdin ends.
func serve(handle func(net.Conn)) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail("listen: " + err.Error())
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go handle(c)
		}
	}()
	fmt.Printf("@listening port=%d\n", ln.Addr().(*net.TCPAddr).Port)
	io.Copy(io.Discard, os.Stdin)
	ln.Close()
}

// echo copies what it reads back, with a 32 KiB buffer like io.Copy's (io.Copy itself
// would splice socket to socket in the kernel on Linux, which no other server does).
func echo(c net.Conn) {
	defer c.Close()
	buf := make([]byte, 32*1024)
	for {
		n, err := c.Read(buf)
		if n > 0 {
			if _, werr := c.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// proxyTo returns a handler that forwards each connection to upstream: one dial, then io.Copy
// both ways in two goroutines, each direction's end passed on as a half-close (CloseWrite).
// Between two TCP connections io.Copy splices in the kernel on Linux (TCPConn.ReadFrom), which
// is what the usual Go relay gets, so it is kept here.
func proxyTo(upstream string) func(net.Conn) {
	return func(c net.Conn) {
		defer c.Close()
		u, err := net.Dial("tcp", upstream)
		if err != nil {
			return
		}
		defer u.Close()
		down := make(chan struct{})
		go func() {
			io.Copy(c, u)
			c.(*net.TCPConn).CloseWrite()
			close(down)
		}()
		io.Copy(u, c)
		u.(*net.TCPConn).CloseWrite()
		<-down
	}
}

// ---------------------------------------------------------------------------------------
// Chat: the part of the gmp4j chat example's protocol the benchmark uses (greeting and
// "*** choose a nickname:", a unique nick, "*** hello <nick>; ...", "*** <nick> joined lobby",
// then "[lobby] <nick>: <text>" to everyone). A hub goroutine owns the room; each client has a
// reader goroutine and a writer goroutine fed by a buffered channel that writes through a
// bufio.Writer and flushes only when the channel is empty (batching). A client whose channel
// is full is disconnected as too slow, as in the gmp4j chat.
// ---------------------------------------------------------------------------------------

const (
	chatQueue   = 8192 // as GmpChatServer.QUEUE: about 300 ms of one client's traffic at full load
	chatMaxLine = 1024
	chatRoom    = "lobby"
)

type chatClient struct {
	conn net.Conn
	out  chan string
	nick string
	gone bool
}

type chatEvent struct {
	c    *chatClient
	text string
	kind int // chatJoined, chatLine, chatLeft
}

const (
	chatJoined = iota
	chatLine
	chatLeft
)

type chatHub struct {
	events  chan chatEvent
	members map[*chatClient]bool
	nicks   map[string]*chatClient
	slow    []*chatClient
}

func chatServer() {
	h := &chatHub{events: make(chan chatEvent, 4096), members: map[*chatClient]bool{}, nicks: map[string]*chatClient{}}
	go h.run()
	serve(func(conn net.Conn) {
		c := &chatClient{conn: conn, out: make(chan string, chatQueue)}
		go c.write()
		h.events <- chatEvent{c: c, kind: chatJoined}
		sc := bufio.NewScanner(conn)
		sc.Buffer(make([]byte, 4096), chatMaxLine+1)
		for sc.Scan() {
			h.events <- chatEvent{c: c, text: sc.Text(), kind: chatLine}
		}
		h.events <- chatEvent{c: c, kind: chatLeft}
	})
}

// write sends what is queued, flushing when the queue is empty; it closes the connection
// when the hub closes the channel.
func (c *chatClient) write() {
	defer c.conn.Close()
	w := bufio.NewWriterSize(c.conn, 64*1024)
	for line := range c.out {
		w.WriteString(line)
		w.WriteByte('\n')
		if len(c.out) == 0 {
			if w.Flush() != nil {
				break
			}
		}
	}
	w.Flush()
	for range c.out {
		// drain until the hub closes it
	}
}

func (h *chatHub) run() {
	for e := range h.events {
		c := e.c
		switch e.kind {
		case chatJoined:
			h.send(c, "*** welcome to the Go chat")
			h.send(c, "*** choose a nickname:")
		case chatLine:
			if c.gone {
				break
			}
			if c.nick == "" {
				h.login(c, strings.TrimSpace(e.text))
			} else if strings.TrimSpace(e.text) != "" {
				h.broadcast("[" + chatRoom + "] " + c.nick + ": " + e.text)
			}
		case chatLeft:
			h.remove(c, "left")
		}
		h.kickSlow()
	}
}

func validNick(s string) bool {
	if len(s) < 1 || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

func (h *chatHub) login(c *chatClient, nick string) {
	key := strings.ToLower(nick)
	if !validNick(nick) {
		h.send(c, "*** a nickname is 1 to 20 letters, digits, '_', '-' or '.'; choose a nickname:")
	} else if h.nicks[key] != nil {
		h.send(c, "*** nickname "+nick+" is taken, choose another:")
	} else {
		c.nick = nick
		h.nicks[key] = c
		h.send(c, "*** hello "+nick+"; you are in "+chatRoom)
		h.members[c] = true
		h.broadcast("*** " + nick + " joined " + chatRoom)
	}
}

func (h *chatHub) send(c *chatClient, line string) {
	if c.gone {
		return
	}
	select {
	case c.out <- line:
	default:
		h.slow = append(h.slow, c)
	}
}

func (h *chatHub) broadcast(line string) {
	for m := range h.members {
		h.send(m, line)
	}
}

func (h *chatHub) remove(c *chatClient, why string) {
	if c.gone {
		return
	}
	c.gone = true
	close(c.out)
	if c.nick != "" {
		delete(h.nicks, strings.ToLower(c.nick))
		delete(h.members, c)
		h.broadcast("*** " + c.nick + " " + why)
	}
}

func (h *chatHub) kickSlow() {
	for len(h.slow) > 0 {
		c := h.slow[0]
		h.slow = h.slow[1:]
		if !c.gone {
			c.conn.Close()
			h.remove(c, "was disconnected: too slow")
		}
	}
}
