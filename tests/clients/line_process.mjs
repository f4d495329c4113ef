// A child process spoken to in lines, as a chess GUI speaks to an engine or an adapter: lines
// are queued as they arrive and taken one at a time, each wait bounded so that a silent peer is
// reported instead of hanging the client.
import { spawn } from "node:child_process";

export class LineProcess {
  constructor(command, args, options = {}) {
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"], ...options });
    this.lines = [];
    this.pending = "";
    this.waiter = null;
    this.closed = false;
    this.exited = new Promise((resolve) => this.child.on("exit", (code, signal) => resolve({ code, signal })));
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk) => {
      this.pending += chunk;
      let newline;
      while ((newline = this.pending.indexOf("\n")) >= 0) {
        this.lines.push(this.pending.slice(0, newline).replace(/\r$/, ""));
        this.pending = this.pending.slice(newline + 1);
      }
      this.wake();
    });
    this.child.stdout.on("end", () => {
      this.closed = true;
      this.wake();
    });
    this.child.stdin.on("error", () => {});  // a peer that died shows as a closed output
  }

  wake() {
    const waiter = this.waiter;
    this.waiter = null;
    if (waiter) waiter();
  }

  // Writes one or more lines at once (a single write: nothing can come between them).
  send(text) {
    this.child.stdin.write(text + "\n");
  }

  // The next line, or null when the peer closed its output or stayed silent for timeoutMs.
  async nextLine(timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length === 0) {
      const left = deadline - Date.now();
      if (this.closed || left <= 0) return null;
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return this.lines.shift();
  }

  // The lines up to and including the first that `isLast` accepts; null on timeout or exit.
  async readUntil(isLast, timeoutMs) {
    const lines = [];
    for (;;) {
      const line = await this.nextLine(timeoutMs);
      if (line === null) return null;
      lines.push(line);
      if (isLast(line)) return lines;
    }
  }

  // Waits up to timeoutMs for the process to end; null if it is still running.
  async exit(timeoutMs) {
    return Promise.race([this.exited, new Promise((resolve) => setTimeout(() => resolve(null), timeoutMs))]);
  }

  kill() {
    this.child.kill("SIGKILL");
  }
}

// chess.js moves as UCI / xboard coordinate text (e2e4, e7e8q; castling as the king's move).
export function coordinateOf(move) {
  return move.from + move.to + (move.promotion ?? "");
}

// The legal moves of a chess.js game, in coordinate text.
export function legalMoves(chess) {
  return new Set(chess.moves({ verbose: true }).map(coordinateOf));
}

// Plays a coordinate move known to be legal.
export function play(chess, coordinate) {
  chess.move({ from: coordinate.slice(0, 2), to: coordinate.slice(2, 4), promotion: coordinate[4] });
}
