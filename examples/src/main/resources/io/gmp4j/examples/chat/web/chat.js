// The gmp4j chat in a browser: one WebSocket at /ws speaking the chat's line protocol, one
// text frame per line both ways, the same lines a TCP user reads and types. No framework.
(() => {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const NAME = /^[A-Za-z0-9_.-]{1,20}$/;
  const DEFAULT_ROOM = "lobby";

  let ws = null;        // the open WebSocket, or null
  let me = null;        // our nickname once the server said hello
  let room = null;      // the room we are in
  let wantRoom = null;  // the room asked for in the join form
  let to = null;        // the nick private messages go to, or null: the room

  function setStatus(text, on) {
    $("status").textContent = text;
    $("status").className = "status " + (on ? "on" : "off");
  }

  // ---- the message list: every line the server sends, as sent, styled by kind

  function span(cls, text) {
    const s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    return s;
  }

  function show(line) {
    const list = $("messages");
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    const li = document.createElement("li");
    let m;
    if ((m = /^(\[pm\] [^:]+:) (.*)$/s.exec(line))) {
      li.className = "msg pm pm-in";
      li.append(span("who", m[1]), " " + m[2]);
    } else if ((m = /^(\[pm -> [^\]]+\]) (.*)$/s.exec(line))) {
      li.className = "msg pm pm-out";
      li.append(span("who", m[1]), " " + m[2]);
    } else if (line.startsWith("*** ")) {
      li.className = "msg notice";
      li.textContent = line;
    } else if ((m = /^(\[[^\]]+\] ([^:]+):) (.*)$/s.exec(line))) {
      li.className = "msg line" + (m[2] === me ? " mine" : "");
      li.append(span("who", m[1]), " " + m[3]);
    } else {
      li.className = "msg";
      li.textContent = line;
    }
    list.append(li);
    if (atBottom) {
      li.scrollIntoView({ block: "end" });
    }
  }

  // ---- the people in our room: from /who's answer, then kept up to date by the notices

  const people = new Set();

  function drawPeople() {
    const ul = $("people");
    ul.replaceChildren();
    [...people].sort((a, b) => a.localeCompare(b)).forEach((nick) => {
      const li = document.createElement("li");
      li.textContent = nick;
      if (nick === me) {
        li.className = "me";
        li.title = "you";
      } else {
        li.title = "write to " + nick + " privately";
        li.addEventListener("click", () => privately(nick));
      }
      ul.append(li);
    });
  }

  function privately(nick) {
    to = nick;
    $("to-nick").textContent = "to " + nick;
    $("to").hidden = false;
    $("line").placeholder = "a private message to " + nick;
    $("line").focus();
  }

  function toRoom() {
    to = null;
    $("to").hidden = true;
    $("line").placeholder = "say something, or /help";
    $("line").focus();
  }

  // ---- what the server's notices mean for the page

  function notice(line) {
    let m;
    if (line === "*** choose a nickname:") {
      send($("nick").value.trim());
    } else if (/^\*\*\* (nickname \S+ is taken, choose another:|a nickname is .*choose a nickname:)$/.test(line) && me === null) {
      $("join-error").textContent = line.slice(4);
      $("join").hidden = false;
      $("connect").disabled = false;
      $("nick").focus();
    } else if ((m = /^\*\*\* hello (\S+); you are in (\S+) /.exec(line))) {
      me = m[1];
      $("join").hidden = true;
      $("chat").hidden = false;
      setStatus("connected as " + me, true);
      $("line").focus();
      if (wantRoom !== null && wantRoom !== m[2]) {
        send("/join " + wantRoom); // the room of the join form, once in the lobby
      } else {
        wantRoom = null;
      }
    } else if ((m = /^\*\*\* (\S+) joined (\S+)$/.exec(line))) {
      if (m[1] === me) {
        room = m[2];
        $("here").textContent = room;
        people.clear();
        if (wantRoom === null || wantRoom === room) {
          wantRoom = null;
          send("/who"); // who is here (not on the way through the lobby to the room asked for)
        }
      } else {
        people.add(m[1]);
      }
      drawPeople();
    } else if ((m = /^\*\*\* (\S+) (left|left \S+|was disconnected: .*)$/.exec(line))) {
      people.delete(m[1]);
      drawPeople();
    } else if ((m = /^\*\*\* (\S+) is now known as (\S+)$/.exec(line))) {
      if (m[1] === me) {
        me = m[2];
        setStatus("connected as " + me, true);
      }
      people.delete(m[1]);
      people.add(m[2]);
      drawPeople();
    } else if ((m = /^\*\*\* in (\S+):(.*)$/.exec(line)) && m[1] === room) {
      people.clear();
      m[2].split(" ").filter((n) => n).forEach((n) => people.add(n));
      drawPeople();
    }
  }

  // ---- the WebSocket

  function send(line) {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(line);
    }
  }

  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    ws = new WebSocket(url);
    setStatus("connecting…", false);
    ws.onmessage = (e) => {
      const line = String(e.data);
      show(line);
      if (line.startsWith("*** ")) {
        notice(line);
      }
    };
    ws.onclose = () => {
      ws = null;
      me = null;
      room = null;
      people.clear();
      drawPeople();
      setStatus("not connected", false);
      $("join").hidden = false;
      $("connect").disabled = false;
    };
    ws.onerror = () => $("join-error").textContent = "cannot reach the chat server at " + url;
  }

  $("join").addEventListener("submit", (e) => {
    e.preventDefault();
    const nick = $("nick").value.trim();
    const r = $("room").value.trim() || DEFAULT_ROOM;
    if (!NAME.test(nick) || !NAME.test(r)) {
      $("join-error").textContent = "a nickname and a room are 1 to 20 letters, digits, '_', '-' or '.'";
      return;
    }
    $("join-error").textContent = "";
    $("connect").disabled = true;
    wantRoom = r;
    if (ws && ws.readyState === WebSocket.OPEN) {
      send(nick); // the server asked for another nickname
    } else {
      connect();
    }
  });

  $("say").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("line").value;
    $("line").value = "";
    // One frame per line: a pasted block becomes several lines, as it would over TCP.
    text.split(/\r?\n/).filter((l) => l.trim() !== "").forEach((l) => {
      send(to !== null && !l.startsWith("/") ? "/msg " + to + " " + l : l);
    });
  });

  $("move").addEventListener("submit", (e) => {
    e.preventDefault();
    const r = $("goto").value.trim();
    if (NAME.test(r)) {
      send("/join " + r);
      $("goto").value = "";
    }
  });

  $("to-clear").addEventListener("click", toRoom);
  $("refresh").addEventListener("click", () => send("/who"));
  $("leave").addEventListener("click", () => send("/quit"));
})();
