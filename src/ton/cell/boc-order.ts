// @ton/core's serialization order of a cell graph, nodes numbered (equal cells one node): nodes in the order a
// breadth-first walk first meets them, then from each in that order not yet placed a depth-first post-order that
// visits references last to first; the whole reversed, so the root comes first and every reference points forward.
// Cells are built bottom-up (a cell's hash covers its children), so the graph has no cycles to guard against.
// On flat integer arrays (no object per node): cell-boc.ts orders any cells with it, table-boc.ts a table's.

/** Marks of one ordering, stamped per call, so marks kept for a table serve every call on it. */
export interface OrderMarks {
  stamp: number;
  seen: Int32Array | number[];
  placed: Int32Array | number[];
  /** After serializationOrder: each node's position in the order. */
  position: Int32Array | number[];
}

/** A node's references: kid(id, r) for r in refsFrom(id) .. refsTo(id) - 1, as node numbers. */
export interface OrderGraph {
  refsFrom(id: number): number;
  refsTo(id: number): number;
  kid(id: number, r: number): number;
}

/** Scratch arrays shared by calls (they do not nest), grown as needed. */
let queue = new Int32Array(1024);
let firstMet = new Int32Array(1024);
let sorted = new Int32Array(1024);
let stackId = new Int32Array(1024);
let stackNext = new Int32Array(1024);

function grown(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/**
 * Orders the graph below `start`; returns the number of nodes n and the post-order `sorted`, whose entry n - 1 - p
 * is the node at position p (a scratch array: read it before the next call). m.position holds each node's position.
 */
export function serializationOrder(start: number, g: OrderGraph, m: OrderMarks): { sorted: Int32Array; n: number } {
  const stamp = ++m.stamp;
  const { seen, placed, position } = m;
  // Breadth-first: the order nodes are first met.
  let met = 0;
  let head = 0;
  let tail = 0;
  queue[tail++] = start;
  while (head < tail) {
    const id = queue[head++] as number;
    if (seen[id] === stamp) continue;
    seen[id] = stamp;
    firstMet = grown(firstMet, met + 1);
    firstMet[met++] = id;
    const to = g.refsTo(id);
    queue = grown(queue, tail + 4);
    for (let r = g.refsFrom(id); r < to; r++) queue[tail++] = g.kid(id, r);
  }
  // From each node in that order not yet placed, a depth-first post-order visiting references last to first.
  sorted = grown(sorted, met);
  stackId = grown(stackId, met + 1);
  stackNext = grown(stackNext, met + 1);
  let n = 0;
  for (let f = 0; f < met; f++) {
    const first = firstMet[f] as number;
    if (placed[first] === stamp) continue;
    let sp = 0;
    stackId[sp] = first;
    stackNext[sp++] = g.refsTo(first) - 1;
    while (sp > 0) {
      const id = stackId[sp - 1] as number;
      const next = stackNext[sp - 1] as number;
      if (next >= g.refsFrom(id)) {
        stackNext[sp - 1] = next - 1;
        const child = g.kid(id, next);
        if (placed[child] !== stamp) {
          stackId[sp] = child;
          stackNext[sp++] = g.refsTo(child) - 1;
        }
        continue;
      }
      sp--;
      if (placed[id] === stamp) continue;
      placed[id] = stamp;
      sorted[n++] = id;
    }
  }
  // Reversed: the root first.
  for (let p = 0; p < n; p++) position[sorted[n - 1 - p] as number] = p;
  return { sorted, n };
}
