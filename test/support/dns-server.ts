import { createSocket } from "node:dgram";

/**
 * A DNS server on 127.0.0.1 answering TXT questions from a table the test changes as it goes
 * (`records.set(name, values)`): enough of RFC 1035 for node's `dns.Resolver` to ask it. Names
 * that are not in the table answer NXDOMAIN, other question types an empty answer.
 */
export interface TxtServer {
  readonly address: string;
  readonly records: Map<string, string[]>;
  close(): Promise<void>;
}

export async function startTxtServer(): Promise<TxtServer> {
  const records = new Map<string, string[]>();
  const socket = createSocket("udp4");
  socket.on("message", (query, peer) => {
    const answer = respond(query, records);
    if (answer) socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    records,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

const TXT = 16;

function respond(query: Buffer, records: ReadonlyMap<string, string[]>): Buffer | undefined {
  if (query.length < 12) return undefined;
  // The question: labels, then type and class.
  const labels: string[] = [];
  let offset = 12;
  while (offset < query.length && query[offset] !== 0) {
    const length = query[offset]!;
    labels.push(query.toString("latin1", offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  const questionEnd = offset + 5;
  if (questionEnd > query.length) return undefined;
  const type = query.readUInt16BE(offset + 1);
  const name = labels.join(".").toLowerCase();
  const values = records.get(name);
  const answers = values && type === TXT ? values : [];
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  // QR, opcode 0, AA, RD copied; RA; RCODE 3 (NXDOMAIN) for an unknown name.
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | (values ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  const parts = [header, query.subarray(12, questionEnd)];
  for (const value of answers) {
    const text = Buffer.from(value, "latin1");
    const rdata = Buffer.concat([Buffer.from([text.length]), text]);
    const record = Buffer.alloc(12);
    record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    record.writeUInt16BE(TXT, 2);
    record.writeUInt16BE(1, 4); // class IN
    record.writeUInt32BE(60, 6); // TTL
    record.writeUInt16BE(rdata.length, 10);
    parts.push(record, rdata);
  }
  return Buffer.concat(parts);
}
