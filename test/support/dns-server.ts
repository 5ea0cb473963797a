/**
 * A real DNS server on 127.0.0.1 (UDP, the dns2 package) answering TXT queries from records the
 * test sets: a name with records answers them, a name set to [] exists without TXT (NODATA), an
 * unknown name is NXDOMAIN; a name may also be made to fail (SERVFAIL) or never answer (timeout).
 */
import dns2 from "dns2";

const { Packet } = dns2;

export interface TestDns {
  /** `127.0.0.1:<port>`, as DNS_SERVERS takes it. */
  address: string;
  /** TXT records by name (lowercase): each record a list of chunks. */
  records: Map<string, string[][]>;
  /** Names that fail instead of answering. */
  failing: Map<string, "servfail" | "silent">;
  /** Queries received, by name. */
  queries: string[];
  close(): Promise<void>;
}

export async function startDns(): Promise<TestDns> {
  const records = new Map<string, string[][]>();
  const failing = new Map<string, "servfail" | "silent">();
  const queries: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      const name = (question?.name ?? "").toLowerCase();
      queries.push(name);
      const failure = failing.get(name);
      if (failure === "silent") return;
      if (failure === "servfail") {
        response.header.rcode = Packet.RCODE.SERVFAIL;
        return send(response);
      }
      const found = records.get(name);
      if (!found) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
        return send(response);
      }
      if (question?.type === Packet.TYPE.TXT) {
        for (const data of found) {
          // A plain record is what dns2's encoder takes (its type also lists the encoder's own toBuffer).
          const answer = { name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 0, data };
          response.answers.push(answer as unknown as (typeof response.answers)[number]);
        }
      }
      send(response);
    },
  });
  const { port } = (await server.listen({ udp: { port: 0, address: "127.0.0.1" } })).udp!;
  return { address: `127.0.0.1:${port}`, records, failing, queries, close: () => server.close() };
}
