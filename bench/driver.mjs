// The load bench's driver: one Node process holding some of the rooms' seat sockets (bench/load.py runs it).
//
//     node bench/driver.mjs CONFIG.json
//
// CONFIG: {"url": "ws://127.0.0.1:PORT", "rooms": [{"room", "tokens": [...]}...], "sampled": [room...],
// "frames": "FILE.jsonl", "warmup": s, "seconds": s, "deflate": bool, "readyTimeout": s}.
// It connects every seat (hello, snapshot), prints `ready`, reads `go T` on stdin (T: the start as a
// CLOCK_MONOTONIC second, Python's time.monotonic()), and from T on has every seat send play(0) as soon as
// the view it holds says it is active. The window is [T + warmup, T + warmup + seconds): a move counts when
// its mover receives the event frame carrying its ack inside it. After the window it waits (≤ 5 s) for the
// acks in flight, prints one JSON line of figures and exits. Every frame a seat of a sampled room receives
// is written raw to FILE as `room seat frame-text` lines in arrival order: load.py checks them for secrets.
// Written in Node because a load generator must cost less than the server it loads: against a server that
// answers at once this costs ~35 µs of CPU per move (4 frames in, 1 out) where the Python (websockets,
// asyncio) driver costs ~135–250, and ~60 against the real server (bench/README.md, "The driver"). Without
// --deflate its sockets are its own minimal WebSocket client (RawLink below), with it the `ws` package.

import { createHash, randomBytes, randomFillSync } from "node:crypto";
import { readFileSync, openSync, writeSync, closeSync } from "node:fs";
import { createRequire } from "node:module";
import { connect as tcpConnect } from "node:net";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import zlib from "node:zlib";
import WebSocket from "ws";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
if (config.deflate) inflateInline();
const SEATS = 4;
const DRAIN_MS = 5000;

// performance.now() (ms) for a CLOCK_MONOTONIC instant: libuv's hrtime is CLOCK_MONOTONIC, like Python's.
const monoOffsetMs = Number(process.hrtime.bigint()) / 1e6 - performance.now();
const fromMonotonic = (seconds) => seconds * 1000 - monoOffsetMs;

let windowStart = Infinity;
let windowStop = Infinity;
let stopping = false;
const sampled = new Set(config.sampled);
const seats = [];
const latencies = [];
const errors = {};
const failures = [];
let moves = 0;
let bytes = 0;
let wire = 0;
let frames = 0;

// The sampled seats' frames, written in blocks (a write per frame would cost more than the frame).
const framesFd = openSync(config.frames, "w");
let framesBuffer = [];
let framesLength = 0;
function record(seat, text) {
    const line = `${seat.room} ${seat.seat} ${text}\n`;
    framesBuffer.push(line);
    framesLength += line.length;
    if (framesLength > 1 << 20) flushFrames();
}
function flushFrames() {
    if (framesBuffer.length) writeSync(framesFd, framesBuffer.join(""));
    framesBuffer = [];
    framesLength = 0;
}

// With --deflate, ws inflates each message on libuv's thread pool (a write, the trailer and a flush: three
// trips through a worker thread, ~45 µs of CPU a frame) and at most 10 at a time in the process. The driver
// instead inflates inline: each socket keeps its own raw-inflate stream (the context carries over between
// messages, as permessage-deflate wants) and drives its native handle synchronously, as zlib's own *Sync
// functions do; ws is answered in a microtask, so it still reads the next frame only after this one. On a
// Node whose zlib internals differ it keeps ws's own inflate.
function inflateInline() {
    const require = createRequire(import.meta.url);
    const PerMessageDeflate = require(join(dirname(require.resolve("ws")), "lib", "permessage-deflate.js"));
    const probe = zlib.createInflateRaw();
    const usable = typeof probe._handle?.writeSync === "function" && probe._writeState instanceof Uint32Array;
    probe.close();
    if (!usable) return;
    const TRAILER = Buffer.from([0x00, 0x00, 0xff, 0xff]);
    const SYNC_FLUSH = zlib.constants.Z_SYNC_FLUSH;
    PerMessageDeflate.prototype.decompress = function (data, fin, callback) {
        this._decompress(data, fin, callback); // no queue: ws's limits the thread pool's work, there is none
    };
    PerMessageDeflate.prototype._decompress = function (data, fin, callback) {
        const endpoint = this._isServer ? "client" : "server";
        if (!this._inlineInflate) {
            const bits = this.params[`${endpoint}_max_window_bits`];
            const windowBits = typeof bits === "number" ? bits : zlib.constants.Z_DEFAULT_WINDOWBITS;
            this._inlineInflate = zlib.createInflateRaw({ windowBits });
            this._inlineInflate.on("error", () => {}); // reported below, from the destroyed stream
            this._inlineOut = Buffer.allocUnsafe(16384);
        }
        let result;
        try {
            result = inflateSync(this._inlineInflate, this._inlineOut, fin ? Buffer.concat([data, TRAILER]) : data);
            if (fin && this.params[`${endpoint}_no_context_takeover`]) this._inlineInflate.reset();
        } catch (error) {
            this._inlineInflate = null;
            queueMicrotask(() => callback(error));
            return;
        }
        queueMicrotask(() => callback(null, result));
    };

    function inflateSync(stream, out, chunk) {
        const state = stream._writeState;
        const parts = [];
        let total = 0;
        let offset = 0;
        let length = chunk.length;
        for (;;) {
            stream._handle.writeSync(SYNC_FLUSH, chunk, offset, length, out, 0, out.length);
            if (stream.destroyed) throw new Error("permessage-deflate: the server's data does not inflate");
            const [outLeft, inLeft] = state;
            const have = out.length - outLeft;
            if (have > 0) {
                parts.push(Buffer.from(out.subarray(0, have)));
                total += have;
            }
            if (outLeft !== 0) break; // room left in `out`: every input byte was taken
            offset += length - inLeft;
            length = inLeft;
        }
        return parts.length === 1 ? parts[0] : Buffer.concat(parts, total);
    }
}

// The sockets. Without --deflate each seat's socket is a RawLink: a minimal RFC 6455 client on a net.Socket
// (the upgrade handshake, then the server's frames parsed straight from what the socket reads), because ws's
// per-frame machinery (a Writable stream per receiver, events, a Buffer per read) cost about as much as the
// driver's own work on a frame. With --deflate (or a wss:// URL) it is a WsLink: ws, as before. Both give the
// seat the same calls: open(), message(text, payloadBytes), failed(error), closed(code); and `read`, the
// bytes taken from the TCP socket so far (the wire figure).
const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

class WsLink {
    constructor(url, seat) {
        const ws = new WebSocket(url, {
            perMessageDeflate: config.deflate, // offered like a browser (client_max_window_bits) or not at all
            maxPayload: 0,
            skipUTF8Validation: true,
        });
        this.ws = ws;
        ws.on("open", () => seat.open());
        ws.on("message", (data) => seat.message(data.toString(), data.length));
        ws.on("error", (error) => seat.failed(error));
        ws.on("close", (code) => seat.closed(code));
    }
    get read() {
        return this.ws._socket.bytesRead;
    }
    // A Buffer: ws frames it into one write, not two. Never compressed (permessage-deflate allows that per
    // message): ws would deflate every commit on the thread pool; a browser deflates its own.
    send(text) {
        this.ws.send(Buffer.from(text), { binary: false, compress: false });
    }
    terminate() {
        this.ws.terminate();
    }
}

// Every socket reads into this one buffer (net's `onread`: no Buffer, no stream push per read); a read is
// parsed before the next one starts, and a frame cut by the end of a read is copied out (`rest`).
const READ_BUFFER = Buffer.allocUnsafe(1 << 16);
// Masks come from a pool of random bytes, refilled when used up (as ws does).
const MASKS = Buffer.allocUnsafe(8192);
let maskAt = MASKS.length;

class RawLink {
    constructor(url, seat) {
        const { hostname, port, pathname, search } = new URL(url);
        this.seat = seat;
        this.read = 0; // the bytes of every frame parsed so far (headers included); the handshake not counted
        this.rest = null; // the start of a frame that a read cut
        this.fragments = null; // the payloads of a message sent in fragments so far
        this.handshaken = false;
        this.closeCode = null; // the code of the server's close frame
        this.ended = false;
        this.key = randomBytes(16).toString("base64");
        const host = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
        const socket = tcpConnect({
            host,
            port: Number(port || 80),
            noDelay: true,
            onread: { buffer: READ_BUFFER, callback: (length, buffer) => this.take(buffer, length) },
        });
        this.socket = socket;
        socket.on("connect", () => {
            socket.write(
                `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\n` +
                    `Connection: Upgrade\r\nSec-WebSocket-Key: ${this.key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
            );
        });
        socket.on("error", (error) => seat.failed(error));
        socket.on("close", () => {
            this.ended = true;
            seat.closed(this.closeCode ?? 1006);
        });
    }

    // One read of `length` bytes at the start of `buffer` (the shared READ_BUFFER: copy what must outlive it).
    take(buffer, length) {
        if (this.ended) return;
        let data = buffer;
        let end = length;
        if (this.rest !== null) {
            data = Buffer.concat([this.rest, buffer.subarray(0, length)]);
            end = data.length;
            this.rest = null;
        }
        let at = 0;
        if (!this.handshaken) {
            at = this.handshake(data, end);
            if (at < 0) return;
        }
        while (at < end && !this.ended) {
            const used = this.frame(data, at, end);
            if (used === 0) break;
            at += used;
        }
        if (at < end && !this.ended) this.rest = Buffer.from(data.subarray(at, end));
    }

    // The response to the upgrade: returns where the frames start, or -1 (waiting for more, or failed).
    handshake(data, end) {
        const stop = data.subarray(0, end).indexOf("\r\n\r\n");
        if (stop < 0) {
            if (end > 16384) return this.fail("the server's upgrade response is too long");
            this.rest = Buffer.from(data.subarray(0, end));
            return -1;
        }
        const lines = data.toString("latin1", 0, stop).split("\r\n");
        const status = lines[0].split(" ")[1];
        if (status !== "101") return this.fail(`Unexpected server response: ${status}`);
        const headers = {};
        for (const line of lines.slice(1)) {
            const colon = line.indexOf(":");
            if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const accept = createHash("sha1").update(this.key + WS_GUID).digest("base64");
        if ((headers.upgrade ?? "").toLowerCase() !== "websocket") return this.fail("Invalid Upgrade header");
        if (headers["sec-websocket-accept"] !== accept) return this.fail("Invalid Sec-WebSocket-Accept header");
        if (headers["sec-websocket-extensions"] !== undefined || headers["sec-websocket-protocol"] !== undefined) {
            return this.fail("the server chose an extension or subprotocol that was not offered");
        }
        this.handshaken = true;
        this.seat.open();
        return stop + 4;
    }

    // Parses the frame at data[at...end): returns its length, or 0 when it is not all there yet.
    frame(data, at, end) {
        if (end - at < 2) return 0;
        const first = data[at];
        const second = data[at + 1];
        if (second & 0x80) return this.fail("the server masked a frame", 1002);
        if (first & 0x70) return this.fail("a frame with RSV bits set (no extension was negotiated)", 1002);
        let length = second & 0x7f;
        let head = 2;
        if (length === 126) {
            if (end - at < 4) return 0;
            length = data.readUInt16BE(at + 2);
            head = 4;
        } else if (length === 127) {
            if (end - at < 10) return 0;
            length = data.readUInt32BE(at + 2) * 2 ** 32 + data.readUInt32BE(at + 6);
            head = 10;
        }
        if (end - at < head + length) return 0;
        this.read += head + length;
        const start = at + head;
        const stop = start + length;
        const opcode = first & 0x0f;
        const fin = (first & 0x80) !== 0;
        if (opcode === 0x1 || opcode === 0x2) {
            if (this.fragments !== null) return this.fail("a new message inside a fragmented one", 1002);
            if (fin) this.seat.message(data.toString("utf8", start, stop), length);
            else this.fragments = [Buffer.from(data.subarray(start, stop))];
        } else if (opcode === 0x0) {
            if (this.fragments === null) return this.fail("a continuation frame outside a message", 1002);
            this.fragments.push(Buffer.from(data.subarray(start, stop)));
            if (fin) {
                const whole = Buffer.concat(this.fragments);
                this.fragments = null;
                this.seat.message(whole.toString("utf8"), whole.length);
            }
        } else if (opcode === 0x8) {
            this.closeCode = length >= 2 ? data.readUInt16BE(start) : 1005;
            this.control(0x8, data.subarray(start, Math.min(stop, start + 2))); // echo the code, as ws does
            this.ended = true;
            this.socket.end();
        } else if (opcode === 0x9) {
            this.control(0xa, data.subarray(start, stop)); // pong with the ping's payload
        } else if (opcode !== 0xa) {
            return this.fail(`a frame with opcode ${opcode}`, 1002);
        }
        return head + length;
    }

    fail(message, code = null) {
        if (code !== null && !this.ended) this.control(0x8, Buffer.from([code >> 8, code & 0xff]));
        this.closeCode = code;
        this.ended = true;
        this.seat.failed(new Error(message));
        this.socket.destroy();
        return code === null ? -1 : 0;
    }

    // A masked frame (a client masks every frame with a fresh random key, RFC 6455 5.3) built in one Buffer
    // and sent in one write; `payload` a Buffer or a string (written as UTF-8 straight into the frame).
    sendFrame(opcode, payload) {
        const text = typeof payload === "string";
        const length = text ? Buffer.byteLength(payload) : payload.length;
        const head = length < 126 ? 2 : length < 65536 ? 4 : 10;
        const at = head + 4;
        const frame = Buffer.allocUnsafe(at + length);
        frame[0] = 0x80 | opcode;
        if (head === 2) frame[1] = 0x80 | length;
        else if (head === 4) {
            frame[1] = 0x80 | 126;
            frame.writeUInt16BE(length, 2);
        } else {
            frame[1] = 0x80 | 127;
            frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
            frame.writeUInt32BE(length >>> 0, 6);
        }
        if (maskAt + 4 > MASKS.length) {
            randomFillSync(MASKS);
            maskAt = 0;
        }
        const m0 = MASKS[maskAt];
        const m1 = MASKS[maskAt + 1];
        const m2 = MASKS[maskAt + 2];
        const m3 = MASKS[maskAt + 3];
        maskAt += 4;
        frame[head] = m0;
        frame[head + 1] = m1;
        frame[head + 2] = m2;
        frame[head + 3] = m3;
        if (text) frame.write(payload, at);
        else payload.copy(frame, at);
        let i = at;
        const stop = at + length;
        for (; i + 3 < stop; i += 4) {
            frame[i] ^= m0;
            frame[i + 1] ^= m1;
            frame[i + 2] ^= m2;
            frame[i + 3] ^= m3;
        }
        for (let k = 0; i < stop; i++, k++) frame[i] ^= frame[head + k];
        this.socket.write(frame);
    }

    control(opcode, payload) {
        if (!this.socket.destroyed && this.socket.writable) this.sendFrame(opcode, payload);
    }

    send(text) {
        if (!this.ended) this.sendFrame(0x1, text);
    }

    terminate() {
        this.ended = true;
        this.socket.destroy();
    }
}

// Applies the patch ops that touch the view's `active` list to `turn` ({active: [...]}), as a client would.
function applyActive(turn, ops) {
    for (const op of ops) {
        const path = op[1];
        if (path.length === 0 || path[0] !== "active") continue;
        let node = turn;
        for (let i = 0; i < path.length - 1; i++) node = node[path[i]];
        const key = path[path.length - 1];
        switch (op[0]) {
            case "set": node[key] = op[2]; break;
            case "del": if (Array.isArray(node)) node.splice(key, 1); else delete node[key]; break;
            case "append": node[key].push(...op[2]); break;
            case "fill": for (let i = 0; i < op[2]; i++) node[key].push(structuredClone(op[3])); break;
            case "trunc": node[key].length = op[2]; break;
            case "splice": node[key].splice(op[2], op[3], ...op[4]); break;
            default: throw new Error(`unknown patch op ${op[0]}`);
        }
    }
}

// Reads what a seat needs from an event frame without parsing all of it (JSON.parse of a ~300-byte frame
// costs ~4 µs here, most of the driver's budget): a frame is canonical JSON (keys sorted), so `ack` comes
// first, `seq` and `type` last; the ops on `active` are the only ones whose path starts with "active" (a
// quote inside a JSON string is escaped, so `["set",["active"` can only be such an op). Returns null for
// anything else (a snapshot, an error, a frame that ends the game): the caller parses those in full. The
// sampled seats parse every frame in full and check this reading against it.
const EVENT_END = ',"type":"event"}';
const ACTIVE_OP = /\["(?:set|del|append|fill|trunc|splice)",\["active"/g;
function readEvent(text) {
    if (!text.endsWith(EVENT_END) || text.includes('"over":true')) return null;
    const end = text.length - EVENT_END.length;
    const at = text.lastIndexOf('"seq":', end);
    const seq = Number(text.slice(at + 6, end));
    if (at < 0 || !Number.isInteger(seq)) return null;
    const ack = text.startsWith('{"ack":"') ? text.slice(8, text.indexOf('"', 8)) : undefined;
    const ops = [];
    ACTIVE_OP.lastIndex = 0;
    for (let match; (match = ACTIVE_OP.exec(text)) !== null; ) {
        const stop = closingBracket(text, match.index);
        ops.push(JSON.parse(text.slice(match.index, stop)));
        ACTIVE_OP.lastIndex = stop;
    }
    return { seq, ack, ops, over: false };
}

// The index after the bracket that closes the array opened at `start` (strings skipped).
function closingBracket(text, start) {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 34) {
            for (i++; text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
        } else if (c === 91 || c === 123) depth++;
        else if ((c === 93 || c === 125) && --depth === 0) return i + 1;
    }
    throw new Error("an unclosed patch op");
}

function sameEvent(fast, frame) {
    const ops = frame.patch.filter((op) => op[1].length && op[1][0] === "active");
    return fast.seq === frame.seq && fast.ack === frame.ack && JSON.stringify(fast.ops) === JSON.stringify(ops);
}

class Seat {
    constructor(room, seat) {
        this.room = room.room;
        this.seat = seat;
        this.token = room.tokens[seat];
        this.sampled = sampled.has(room.room);
        this.turn = { active: [] };
        this.seq = 0;
        this.offered = false;
        this.over = false;
        this.pending = null; // {cid, text, sent}
        this.number = 0;
        this.wireMark = 0;
        this.ready = false;
        this.done = false;
    }

    connect() {
        return new Promise((resolve, reject) => {
            this.connected = { resolve, reject };
            const url = `${config.url}/ws/rooms/${this.room}`;
            this.link = config.deflate || !url.startsWith("ws:") ? new WsLink(url, this) : new RawLink(url, this);
        });
    }

    open() {
        this.link.send(JSON.stringify({ type: "hello", role: "seat", seat: this.seat, token: this.token }));
    }

    message(text, length) {
        if (!this.ready) {
            this.ready = true;
            this.wireMark = this.link.read;
            if (this.sampled) record(this, text);
            this.snapshot(JSON.parse(text));
            this.connected.resolve();
            return;
        }
        this.receive(text, length);
    }

    failed(error) {
        if (!this.ready) this.connected.reject(error);
        else failures.push(`${this.room}/${this.seat}: ${error}`);
    }

    closed(code) {
        if (!this.ready) this.connected.reject(new Error(`closed with ${code} before the snapshot`));
        else if (!this.done) {
            failures.push(`${this.room}/${this.seat}: closed with ${code}`);
            this.finish();
        }
    }

    snapshot(frame) {
        this.seq = frame.seq;
        this.turn = { active: [...frame.view.active] };
        this.over = frame.over;
        this.offered = this.turn.active.includes(this.seat) && !this.over;
        this.pending = null;
    }

    receive(text, length) {
        const now = performance.now();
        const read = this.link.read;
        if (now >= windowStart && now < windowStop) {
            bytes += length;
            wire += read - this.wireMark;
            frames += 1;
        }
        this.wireMark = read;
        let event = null;
        let frame = null;
        if (this.sampled) {
            record(this, text);
            frame = JSON.parse(text);
            event = readEvent(text);
            if (event !== null && !sameEvent(event, frame)) {
                failures.push(`the fast reading of a frame differs from JSON.parse: ${text.slice(0, 300)}`);
            }
        } else {
            event = readEvent(text);
            if (event === null) frame = JSON.parse(text);
        }
        if (event === null && frame.type === "event") {
            event = { seq: frame.seq, ack: frame.ack, ops: frame.patch, over: Boolean(frame.over) };
        }
        if (event !== null) {
            this.seq = event.seq;
            applyActive(this.turn, event.ops);
            if (event.over) this.over = true;
            this.offered = this.turn.active.includes(this.seat) && !this.over;
            if (this.pending !== null && event.ack === this.pending.cid) {
                // our move, durable and applied
                if (now >= windowStart && now < windowStop) {
                    latencies.push(performance.now() - this.pending.sent);
                    moves += 1;
                }
                this.pending = null;
            }
            this.step();
            return;
        }
        const kind = frame.type;
        if (kind === "snapshot") {
            this.snapshot(frame);
        } else if (kind === "error") {
            const code = frame.code ?? "?";
            errors[code] = (errors[code] ?? 0) + 1;
            if (code === "frame/rate-limited" && this.pending !== null) {
                const pending = this.pending;
                setTimeout(() => {
                    if (this.pending === pending && !this.done) this.link.send(pending.text);
                }, 50);
            } else if (this.pending !== null && frame.commitId != null) {
                this.pending = null;
            }
        }
        this.step();
    }

    // Sends play(0) when the seat is to act; finishes once the window is over and nothing is in flight.
    step() {
        if (this.done) return;
        if (stopping || performance.now() >= windowStop) {
            if (this.pending === null) this.finish();
            return;
        }
        if (!this.offered || this.pending !== null) return;
        this.number += 1;
        const cid = `${this.seat}-${this.number}`;
        const text = `{"type":"commit","baseSeq":${this.seq},"steps":[{"type":"command","name":"play","args":{"index":0}}],"commitId":"${cid}"}`;
        this.pending = { cid, text, sent: performance.now() };
        this.offered = false;
        this.link.send(text);
    }

    finish() {
        if (this.done) return;
        this.done = true;
        finished += 1;
        if (finished === seats.length) end();
    }
}

let finished = 0;
let cpuStart = null;

function end() {
    for (const seat of seats) seat.link?.terminate();
    flushFrames();
    closeSync(framesFd);
    const cpu = cpuStart === null ? { user: 0, system: 0 } : process.cpuUsage(cpuStart);
    const result = {
        latencies: latencies.map((x) => Math.round(x * 1000) / 1000),
        moves,
        bytes,
        wire,
        frames,
        errors,
        failures: failures.slice(0, 5),
        cpu: (cpu.user + cpu.system) / 1e6, // from the go on (load.py reads the window's own from /proc)
    };
    process.stdout.write(JSON.stringify(result) + "\n", () => process.exit(0));
}

async function main() {
    const giveUp = setTimeout(() => {
        process.stderr.write("driver: no go within the ready timeout\n");
        process.exit(3);
    }, (config.readyTimeout ?? 120) * 1000);
    for (const room of config.rooms) for (let s = 0; s < SEATS; s++) seats.push(new Seat(room, s));
    await Promise.all(seats.map((seat) => seat.connect()));
    process.stdout.write("ready\n");
    const input = createInterface({ input: process.stdin });
    input.on("close", () => {
        if (cpuStart === null && windowStop === Infinity) process.exit(4); // load.py went away before the go
    });
    input.on("line", (line) => {
        const [word, value] = line.trim().split(" ");
        if (word !== "go" || windowStop !== Infinity) return;
        clearTimeout(giveUp);
        const start = fromMonotonic(Number(value));
        windowStart = start + config.warmup * 1000;
        windowStop = windowStart + config.seconds * 1000;
        setTimeout(() => {
            cpuStart = process.cpuUsage();
            for (const seat of seats) seat.step();
        }, Math.max(0, start - performance.now()));
        // Seats that get no frame after the stop end there; those waiting for an ack end DRAIN_MS later.
        setTimeout(() => {
            for (const seat of seats) if (seat.pending === null) seat.finish();
        }, Math.max(0, windowStop - performance.now()) + 10);
        setTimeout(() => {
            stopping = true;
            for (const seat of seats) seat.finish();
        }, Math.max(0, windowStop - performance.now()) + DRAIN_MS);
    });
}

main().catch((error) => {
    process.stderr.write(`driver: ${error?.stack ?? error}\n`);
    process.exit(2);
});
