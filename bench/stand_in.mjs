// A stand-in for the server that measures the load driver alone (bench/load.py --stand-in): no rules, no store.
//
//     node bench/stand_in.mjs
//
// Listens on a free port of 127.0.0.1 (prints `port N`) and speaks just enough of the room protocol for the
// driver: a hello gets a snapshot whose view has `active: [0]`; a commit from the active seat at once gets
// every socket of its room an `event` frame shaped and sized like draw-discard's (the committer's carries
// `ack` and its hand's patch, ~390 bytes; the others ~265), the turn passing to the next seat. It answers as
// fast as Node can, so the driver's CPU per move here is its cost when the server is fast, and the moves/s
// an upper bound of what the driver can drive (with --deflate the stand-in's own compression is the limit,
// not the driver). Exits when its stdin closes, or after 15 minutes.

import { createServer } from "node:http";
import { WebSocketServer } from "ws";

const SEATS = 4;
const rooms = new Map();
const http = createServer((request, response) => response.writeHead(404).end());
// permessage-deflate when the driver offers it (--deflate), every frame compressed, as the real server does
const wss = new WebSocketServer({ server: http, perMessageDeflate: { threshold: 0 } });

function eventFrames(room, mover, commitId) {
    const seq = room.seq;
    const next = room.active;
    const deck = 31 - (seq % 32);
    const card = seq % 52;
    const shared =
        `"moves":[["hand-${mover}",null,"discard",-1],["deck",-1,"hand-${mover}",null]],` +
        `"patch":[["set",["players",${mover},"state","score"],${seq % 200}],["trunc",["spaces",0,"pieces"],${deck}],` +
        `["append",["spaces",1,"pieces"],[{"kind":"c${card}"}]]`;
    const tail = `,["set",["active",0],${next}]],"seq":${seq},"type":"event"}`;
    const hand =
        `,["splice",["spaces",${2 + mover},"pieces"],0,1,[]],` +
        `["append",["spaces",${2 + mover},"pieces"],[{"kind":"back","private_kind":"c${(card + 7) % 52}"}]]`;
    return [`{${shared}${tail}`, `{"ack":${JSON.stringify(commitId)},${shared}${hand}${tail}`];
}

wss.on("connection", (ws, request) => {
    const id = request.url.split("/").pop();
    if (!rooms.has(id)) rooms.set(id, { seq: 0, active: 0, sockets: [] });
    const room = rooms.get(id);
    let seat = null;
    ws.on("message", (data) => {
        const frame = JSON.parse(data);
        if (frame.type === "hello") {
            seat = frame.seat;
            room.sockets[seat] = ws;
            const view = { active: [room.active], spaces: [] };
            ws.send(JSON.stringify({ over: false, room: id, seat, seq: room.seq, type: "snapshot", view }));
        } else if (frame.type === "commit") {
            if (seat !== room.active || frame.baseSeq !== room.seq) {
                ws.send(JSON.stringify({ code: "step/not-active", commitId: frame.commitId, type: "error" }));
                return;
            }
            room.seq += 1;
            room.active = (room.active + 1) % SEATS;
            const [others, own] = eventFrames(room, seat, frame.commitId);
            for (const socket of room.sockets) if (socket) socket.send(socket === ws ? own : others);
        }
    });
});

http.listen(0, "127.0.0.1", () => process.stdout.write(`port ${http.address().port}\n`));
process.stdin.on("end", () => process.exit(0)).resume();
setTimeout(() => process.exit(0), 15 * 60 * 1000).unref();
