// SPDX-License-Identifier: Apache-2.0
// regex.js - a bounded matcher for the patterns that can backtrack
// catastrophically (the rules mark them: "risk": "exp" or "poly", found by
// src/validate/ecma_risk.c). JavaScript's RegExp cannot be interrupted, so
// these run here instead: ECMA-262 semantics with the `u` flag (22.2.2:
// greedy and lazy repeats, the empty check, captures cleared per iteration,
// lookahead and lookbehind, back-references, \b), compiled to a small
// program for a backtracking machine with an explicit stack, that gives up
// after `limit` backtracking points, as PCRE2's match limit does in C.
//
// compileBounded(source, limit) -> { test(string) -> 1 match, 0 no match,
// -1 gave up }. The source must be valid (RegExp(source, "u") accepts it).

const OP_CHAR = 0, OP_SPLIT = 1, OP_JMP = 2, OP_SAVE = 3, OP_ASSERT = 4, OP_BACKREF = 5,
  OP_LOOK = 6, OP_SETCNT = 7, OP_LOOP = 8, OP_MARK = 9, OP_EMPTY = 10, OP_INC = 11, OP_CLEAR = 12,
  OP_MATCH = 13, OP_POSS = 14;

const WS = [[9, 13], [32, 32], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029],
  [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]];
const DIGIT = [[48, 57]];
const WORD = [[48, 57], [65, 90], [95, 95], [97, 122]];
const LINE_TERM = [[10, 10], [13, 13], [0x2028, 0x2029]];

function negate(r) {
  const out = [];
  let next = 0;
  for (const [lo, hi] of r) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}

function norm(r) {
  r.sort((a, b) => a[0] - b[0]);
  const out = [];
  for (const x of r) {
    if (out.length && x[0] <= out[out.length - 1][1] + 1) out[out.length - 1][1] = Math.max(out[out.length - 1][1], x[1]);
    else out.push([x[0], x[1]]);
  }
  return out;
}

// A character set: ranges, plus \p{...} tests through RegExp.
class CSet {
  constructor(ranges, props, neg) {
    this.r = norm(ranges);
    this.props = props;
    this.neg = neg;
    this.lo = new Int32Array(this.r.map((x) => x[0]));
    this.hi = new Int32Array(this.r.map((x) => x[1]));
    this.one = !neg && props.length === 0 && this.r.length === 1 && this.r[0][0] === this.r[0][1] ? this.r[0][0] : -1;
    this.ascii = new Uint8Array(128);
    for (let c = 0; c < 128; c++) this.ascii[c] = this.slowHas(c) ? 1 : 0;
  }
  slowHas(c) {
    let inr = false;
    for (const [lo, hi] of this.r) if (c >= lo && c <= hi) { inr = true; break; }
    if (!inr && this.props.length) {
      const s = String.fromCodePoint(c);
      for (const p of this.props) if (p.test(s)) { inr = true; break; }
    }
    return inr !== this.neg;
  }
  has(c) {
    if (c < 128) return this.ascii[c] === 1;
    let lo = 0, hi = this.lo.length - 1, inr = false;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      if (c < this.lo[m]) hi = m - 1;
      else if (c > this.hi[m]) lo = m + 1;
      else { inr = true; break; }
    }
    if (!inr && this.props.length) {
      const s = String.fromCodePoint(c);
      for (const p of this.props) if (p.test(s)) { inr = true; break; }
    }
    return inr !== this.neg;
  }
  // no character in both (conservative: false when \p is involved)
  disjoint(o) {
    if (this.neg || o.neg || this.props.length || o.props.length) return false;
    let i = 0, j = 0;
    while (i < this.r.length && j < o.r.length) {
      if (this.r[i][1] < o.r[j][0]) i++;
      else if (o.r[j][1] < this.r[i][0]) j++;
      else return false;
    }
    return true;
  }
}

// ---- parsing (the grammar ecma_re.c checks; the source is known to be valid) ----------
// parse() is long only as a closure: its inner functions (one per rule of the grammar,
// none over 60 lines) share the cursor `i` and the group table, which splitting would
// have to pass to each of them.

function parse(src) {
  const s = Array.from(src, (ch) => ch.codePointAt(0));
  let i = 0, ncap = 0;
  const names = new Map();
  // group numbers and names first: a back-reference may precede its group
  {
    let inClass = false, n = 0;
    for (let k = 0; k < s.length; k++) {
      const c = s[k];
      if (c === 0x5c) k++;
      else if (inClass) { if (c === 0x5d) inClass = false; }
      else if (c === 0x5b) inClass = true;
      else if (c === 0x28) {
        if (s[k + 1] === 0x3f) {
          if (s[k + 2] === 0x3c && s[k + 3] !== 0x3d && s[k + 3] !== 0x21) {
            n++;
            let e = k + 3, name = "";
            while (e < s.length && s[e] !== 0x3e) name += String.fromCodePoint(s[e++]);
            names.set(decodeName(name), n);
          }
        } else n++;
      }
    }
  }
  const peek = (k = 0) => (i + k < s.length ? s[i + k] : -1);
  const hex = (c) => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1);

  function uEscape() {
    if (peek() === 0x7b) {
      i++;
      let v = 0;
      while (peek() !== 0x7d) v = v * 16 + hex(s[i++]);
      i++;
      return v;
    }
    let v = 0;
    for (let k = 0; k < 4; k++) v = v * 16 + hex(s[i++]);
    if (v >= 0xd800 && v <= 0xdbff && peek() === 0x5c && peek(1) === 0x75) {
      let lo = 0, ok = true;
      for (let k = 0; k < 4; k++) { const h = hex(peek(2 + k)); if (h < 0) ok = false; else lo = lo * 16 + h; }
      if (ok && lo >= 0xdc00 && lo <= 0xdfff) { i += 6; v = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00); }
    }
    return v;
  }
  function charEscape() {
    const c = s[i++];
    switch (c) {
      case 0x66: return 12;
      case 0x6e: return 10;
      case 0x72: return 13;
      case 0x74: return 9;
      case 0x76: return 11;
      case 0x63: return s[i++] % 32;
      case 0x30: return 0;
      case 0x78: { const v = hex(s[i]) * 16 + hex(s[i + 1]); i += 2; return v; }
      case 0x75: return uEscape();
      case 0x62: return 8;    // only inside a class
      default: return c;
    }
  }
  // \d \w \s \p... as [ranges, props, negated]
  function classEscape(c) {
    switch (c) {
      case 0x64: return [DIGIT, [], false];
      case 0x44: return [negate(DIGIT), [], false];
      case 0x77: return [WORD, [], false];
      case 0x57: return [negate(WORD), [], false];
      case 0x73: return [WS, [], false];
      case 0x53: return [negate(norm(WS.map((x) => x.slice()))), [], false];
      default: {   // p, P
        const start = i;
        while (s[i] !== 0x7d) i++;
        const body = String.fromCodePoint(...s.slice(start, i + 1));
        i++;
        return [[], [new RegExp("^\\" + String.fromCodePoint(c) + body + "$", "u")], false];
      }
    }
  }
  function cls() {
    let neg = false;
    if (peek() === 0x5e) { neg = true; i++; }
    const ranges = [], props = [];
    while (peek() !== 0x5d) {
      let lo, isClass = false;
      if (peek() === 0x5c && "dDwWsSpP".includes(String.fromCodePoint(peek(1)))) {
        i++;
        const [r, p, n] = classEscape(s[i++]);
        void n;
        for (const x of r) ranges.push(x.slice());
        for (const x of p) props.push(x);
        isClass = true;
      } else if (peek() === 0x5c) {
        i++;
        lo = charEscape();
      } else {
        lo = s[i++];
      }
      if (!isClass && peek() === 0x2d && peek(1) !== 0x5d && peek(1) !== -1) {
        i++;
        let hi;
        if (peek() === 0x5c) { i++; hi = charEscape(); } else hi = s[i++];
        ranges.push([lo, hi]);
      } else if (!isClass) {
        ranges.push([lo, lo]);
      }
    }
    i++;
    return { t: "set", set: new CSet(ranges, props, neg) };
  }
  function quant(atom) {
    let min, max;
    const c = peek();
    if (c === 0x2a) { min = 0; max = Infinity; i++; }
    else if (c === 0x2b) { min = 1; max = Infinity; i++; }
    else if (c === 0x3f) { min = 0; max = 1; i++; }
    else if (c === 0x7b) {
      i++;
      let a = 0;
      while (peek() >= 48 && peek() <= 57) a = a * 10 + (s[i++] - 48);
      let b = a;
      if (peek() === 0x2c) {
        i++;
        if (peek() >= 48 && peek() <= 57) { b = 0; while (peek() >= 48 && peek() <= 57) b = b * 10 + (s[i++] - 48); }
        else b = Infinity;
      }
      i++;
      min = a; max = b;
    } else return atom;
    let greedy = true;
    if (peek() === 0x3f) { greedy = false; i++; }
    return { t: "rep", min, max, greedy, body: atom, capFrom: atom.capFrom, capTo: atom.capTo };
  }
  let capCounter = 0;
  function term() {
    const c = peek();
    const before = capCounter;
    const tag = (n) => { n.capFrom = before + 1; n.capTo = capCounter; return n; };
    switch (c) {
      case 0x5e: i++; return { t: "assert", k: "^" };
      case 0x24: i++; return { t: "assert", k: "$" };
      case 0x2e: i++; return tag(quant(tag({ t: "set", set: new CSet(negate(LINE_TERM), [], false) })));
      case 0x5b: i++; return tag(quant(tag(cls())));
      case 0x28: {
        i++;
        let node;
        if (peek() === 0x3f) {
          const d = peek(1);
          if (d === 0x3a) { i += 2; node = { t: "group", cap: 0, body: alt() }; }
          else if (d === 0x3d || d === 0x21) { i += 2; node = { t: "look", behind: false, neg: d === 0x21, body: alt() }; }
          else if (d === 0x3c && (peek(2) === 0x3d || peek(2) === 0x21)) { const n = peek(2) === 0x21; i += 3; node = { t: "look", behind: true, neg: n, body: alt() }; }
          else {
            i += 2;
            while (s[i] !== 0x3e) i++;
            i++;
            const n = ++capCounter;
            node = { t: "group", cap: n, body: alt() };
          }
        } else {
          const n = ++capCounter;
          node = { t: "group", cap: n, body: alt() };
        }
        i++;   // ')'
        tag(node);
        if (node.t === "look") return node;
        return tag(quant(node));
      }
      case 0x5c: {
        const e = peek(1);
        if (e === 0x62 || e === 0x42) { i += 2; return { t: "assert", k: e === 0x62 ? "b" : "B" }; }
        i++;
        if ("dDwWsSpP".includes(String.fromCodePoint(e))) {
          i++;
          const [r, p] = classEscape(e);
          return tag(quant(tag({ t: "set", set: new CSet(r.map((x) => x.slice()), p, false) })));
        }
        if (e >= 0x31 && e <= 0x39) {
          let n = 0;
          while (peek() >= 48 && peek() <= 57) n = n * 10 + (s[i++] - 48);
          return tag(quant(tag({ t: "backref", n })));
        }
        if (e === 0x6b) {
          i += 2;
          let name = "";
          while (s[i] !== 0x3e) name += String.fromCodePoint(s[i++]);
          i++;
          return tag(quant(tag({ t: "backref", n: names.get(decodeName(name)) || 0 })));
        }
        const ch = charEscape();
        return tag(quant(tag({ t: "set", set: new CSet([[ch, ch]], [], false) })));
      }
      default:
        i++;
        return tag(quant(tag({ t: "set", set: new CSet([[c, c]], [], false) })));
    }
  }
  function seq() {
    const items = [];
    while (i < s.length && peek() !== 0x7c && peek() !== 0x29) items.push(term());
    return { t: "seq", items };
  }
  function alt() {
    const alts = [seq()];
    while (peek() === 0x7c) { i++; alts.push(seq()); }
    return alts.length === 1 ? alts[0] : { t: "alt", alts };
  }
  const root = alt();
  ncap = capCounter;
  return { root, ncap };
}

function decodeName(n) {
  return n.replace(/\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g, (m, a, b) => String.fromCodePoint(parseInt(a || b, 16)));
}

// ---- compiling to the machine's program --------------------------------------------------

const END = { t: "end" };   // what follows the whole pattern

// first characters a node can start with (forward), or null when unknown / empty allowed
function firstSet(n) {
  switch (n.t) {
    case "set": return n.set;
    case "group": return firstSet(n.body);
    case "seq": return n.items.length && n.items[0].t !== "assert" && n.items[0].t !== "look" ? firstSet(n.items[0]) : null;
    case "rep": return n.min > 0 ? firstSet(n.body) : null;
    case "alt": {
      const sets = n.alts.map(firstSet);
      if (sets.some((x) => x === null || x.neg || x.props.length)) return null;
      return new CSet(sets.flatMap((x) => x.r.map((r) => r.slice())), [], false);
    }
    default: return null;
  }
}

function compileProg(ast) {
  const prog = [];
  let nreg = 0;
  const emit = (op, a = 0, b = 0, c = null) => { prog.push({ op, a, b, c }); return prog.length - 1; };
  function gen(n, back, next) {
    switch (n.t) {
      case "set": emit(OP_CHAR, back ? -1 : 1, 0, n.set); return;
      case "assert": emit(OP_ASSERT, 0, 0, n.k); return;
      case "backref": emit(OP_BACKREF, n.n, back ? -1 : 1); return;
      case "seq": {
        const items = back ? n.items.slice().reverse() : n.items;
        for (let k = 0; k < items.length; k++) gen(items[k], back, items[k + 1] || next);
        return;
      }
      case "alt": {
        const jumps = [];
        for (let k = 0; k < n.alts.length; k++) {
          if (k < n.alts.length - 1) {
            const sp = emit(OP_SPLIT);
            prog[sp].a = prog.length;
            gen(n.alts[k], back, next);
            jumps.push(emit(OP_JMP));
            prog[sp].b = prog.length;
          } else {
            gen(n.alts[k], back, next);
          }
        }
        for (const j of jumps) prog[j].a = prog.length;
        return;
      }
      case "group":
        if (n.cap) emit(OP_SAVE, 2 * n.cap + (back ? 1 : 0));
        gen(n.body, back, next);
        if (n.cap) emit(OP_SAVE, 2 * n.cap + (back ? 0 : 1));
        return;
      case "look": {
        const sub = compileSub(n.body, n.behind);
        emit(OP_LOOK, n.neg ? 1 : 0, 0, sub);
        return;
      }
      case "rep": {
        if (n.max === 0) return;
        // a greedy repeat of one character that what follows cannot start with:
        // never give characters back (PCRE2's auto-possessification)
        if (n.greedy && n.body.t === "set" && !back && next) {
          const f = next === END || (next.t === "assert" && next.k === "$") ? "end" : firstSet(next);
          if (f === "end" || (f && n.body.set.disjoint(f))) {
            emit(OP_POSS, n.min, n.max, n.body.set);
            return;
          }
        }
        const cnt = nreg++, mark = nreg++;
        emit(OP_SETCNT, cnt);
        const loop = emit(OP_LOOP, cnt, 0, { min: n.min, max: n.max, greedy: n.greedy, body: 0, exit: 0 });
        const body = prog.length;
        emit(OP_MARK, mark);
        if (n.capTo >= n.capFrom) emit(OP_CLEAR, n.capFrom, n.capTo);
        gen(n.body, back, null);
        emit(OP_EMPTY, mark, cnt, n.min);
        emit(OP_INC, cnt);
        emit(OP_JMP, loop);
        prog[loop].c.body = body;
        prog[loop].c.exit = prog.length;
        return;
      }
      default: return;
    }
  }
  function compileSub(body, back) {
    const start = prog.length;
    const jmp = emit(OP_JMP);
    const entry = prog.length;
    gen(body, back, null);
    emit(OP_MATCH);
    prog[jmp].a = prog.length;
    void start;
    return entry;
  }
  gen(ast.root, false, END);
  emit(OP_MATCH);
  return { prog, nreg };
}

// Characters every match must contain (PCRE2 checks its "required code
// unit" the same way before matching): a value without one cannot match.
function required(n) {
  switch (n.t) {
    case "set": return n.set.one !== undefined && n.set.one >= 0 ? new Set([n.set.one]) : new Set();
    case "group": return required(n.body);
    case "rep": return n.min > 0 ? required(n.body) : new Set();
    case "seq": {
      const out = new Set();
      for (const x of n.items) for (const c of required(x)) out.add(c);
      return out;
    }
    case "alt": {
      let out = null;
      for (const a of n.alts) {
        const r = required(a);
        out = out === null ? r : new Set([...out].filter((c) => r.has(c)));
      }
      return out || new Set();
    }
    default: return new Set();
  }
}

// ---- the machine ----------------------------------------------------------------------------

class GaveUp {}
const GAVE_UP = new GaveUp();

function isWord(c) {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95 || (c >= 97 && c <= 122);
}

export function compileBounded(source, limit = 1000000) {
  const ast = parse(source);
  const { prog, nreg } = compileProg(ast);
  const ncap = ast.ncap;
  const anchored = startsAnchored(ast.root);
  // a pattern that starts with a possessive run: a failed start inside the
  // run it made fails alike (same end, same rest), so the next start is its end
  const lead = prog[0].op === OP_POSS && !prog.some((x) => x.op === OP_BACKREF) ? prog[0] : null;
  const must = [...required(ast.root)];
  return {
    test(str) {
      const inp = Array.from(str, (ch) => ch.codePointAt(0));
      for (const c of must) if (!inp.includes(c)) return 0;
      const m = new Machine(prog, inp, ncap, nreg, limit);
      try {
        for (let start = 0; start <= inp.length; start++) {
          if (m.run(0, start) >= 0) return 1;
          m.undo(0);
          if (++m.steps > limit) throw GAVE_UP;
          if (lead !== null) {
            let e = start;
            while (e - start < lead.b && e < inp.length && lead.c.has(inp[e])) e++;
            if (e > start + 1) start = e - 1;
          }
          if (anchored) break;
        }
        return 0;
      } catch (e) {
        if (e === GAVE_UP || e instanceof RangeError) return -1;
        throw e;
      }
    },
  };
}

function startsAnchored(n) {
  if (n.t === "alt") return n.alts.every(startsAnchored);
  if (n.t === "seq") return n.items.length > 0 && n.items[0].t === "assert" && n.items[0].k === "^";
  return false;
}

class Machine {
  constructor(prog, inp, ncap, nreg, limit) {
    this.prog = prog;
    this.inp = inp;
    this.caps = new Int32Array(2 * (ncap + 1)).fill(-1);
    this.regs = new Int32Array(Math.max(1, nreg));
    this.log = new Int32Array(256);     // undo log: kind*2^30 | index, old value
    this.nlog = 0;
    this.steps = 0;
    this.limit = limit;
    this.work = 0;
    this.depth = 0;
  }

  set(kind, k, v) {
    if (this.nlog + 2 > this.log.length) {
      const l = new Int32Array(this.log.length * 2);
      l.set(this.log);
      this.log = l;
    }
    const arr = kind === 0 ? this.caps : this.regs;
    this.log[this.nlog++] = kind === 0 ? k : k | 0x40000000;
    this.log[this.nlog++] = arr[k];
    arr[k] = v;
  }

  undo(to) {
    const log = this.log;
    while (this.nlog > to) {
      const old = log[--this.nlog], k = log[--this.nlog];
      if (k & 0x40000000) this.regs[k & 0x3fffffff] = old; else this.caps[k] = old;
    }
  }

  // Run from `pc` at `pos` until OP_MATCH: the end position, or -1.
  // The hot state lives in locals; `this` is brought up to date around
  // the nested runs of lookarounds.
  run(pc0, pos0) {
    if (++this.depth > 200) throw GAVE_UP;
    const prog = this.prog, inp = this.inp, n = inp.length, limit = this.limit, budget = 64 * limit;
    const caps = this.caps, regs = this.regs;
    let log = this.log, nlog = this.nlog, steps = this.steps, work = this.work;
    let stack = new Int32Array(192), sp = 0;     // backtrack points: pc, pos, log length
    let pc = pc0, pos = pos0;
    for (;;) {
      const ins = prog[pc];
      let ok = false;
      if (++work > budget) throw GAVE_UP;         // a time budget besides the step limit
      if (nlog + 8 > log.length) {
        const l = new Int32Array(log.length * 2);
        l.set(log);
        log = this.log = l;
      }
      switch (ins.op) {
        case OP_CHAR: {
          const at = ins.a > 0 ? pos : pos - 1;
          if (at >= 0 && at < n && ins.c.has(inp[at])) { pos += ins.a; pc++; continue; }
          break;
        }
        case OP_POSS: {
          let k = 0;
          const set = ins.c, max = ins.b;
          while (k < max && pos < n && set.has(inp[pos])) { pos++; k++; }
          work += k >> 2;
          if (k >= ins.a) { pc++; continue; }
          break;
        }
        case OP_SPLIT: case OP_LOOP: {
          let first, second;
          if (ins.op === OP_SPLIT) {
            first = ins.a; second = ins.b;
          } else {
            const L = ins.c, cnt = regs[ins.a];
            if (cnt < L.min) { pc = L.body; continue; }
            if (cnt >= L.max) { pc = L.exit; continue; }
            if (L.greedy) { first = L.body; second = L.exit; } else { first = L.exit; second = L.body; }
          }
          if (++steps > limit) throw GAVE_UP;
          if (sp + 3 > stack.length) {
            const st = new Int32Array(stack.length * 2);
            st.set(stack);
            stack = st;
          }
          stack[sp++] = second;
          stack[sp++] = pos;
          stack[sp++] = nlog;
          pc = first;
          continue;
        }
        case OP_JMP: pc = ins.a; continue;
        case OP_SAVE:
          log[nlog++] = ins.a; log[nlog++] = caps[ins.a]; caps[ins.a] = pos;
          pc++;
          continue;
        case OP_ASSERT: {
          switch (ins.c) {
            case "^": ok = pos === 0; break;
            case "$": ok = pos === n; break;
            default: {
              const a = pos > 0 && isWord(inp[pos - 1]), b = pos < n && isWord(inp[pos]);
              ok = ins.c === "b" ? a !== b : a === b;
            }
          }
          if (ok) { pc++; continue; }
          break;
        }
        case OP_BACKREF: {
          const s0 = caps[2 * ins.a], s1 = caps[2 * ins.a + 1];
          if (s0 < 0 || s1 < 0) { pc++; continue; }
          const len = s1 - s0;
          work += len >> 2;
          if (ins.b > 0) {
            if (pos + len > n) break;
            ok = true;
            for (let k = 0; k < len && ok; k++) ok = inp[s0 + k] === inp[pos + k];
            if (ok) { pos += len; pc++; continue; }
          } else {
            if (pos - len < 0) break;
            ok = true;
            for (let k = 0; k < len && ok; k++) ok = inp[s0 + k] === inp[pos - len + k];
            if (ok) { pos -= len; pc++; continue; }
          }
          break;
        }
        case OP_LOOK: {
          this.nlog = nlog; this.steps = steps; this.work = work;
          const mark = nlog;
          const r = this.run(ins.c, pos);
          log = this.log; nlog = this.nlog; steps = this.steps; work = this.work;
          if (ins.a === 0 ? r >= 0 : r < 0) {
            if (ins.a === 1) { this.undo(mark); nlog = this.nlog; }
            pc++;
            continue;
          }
          this.undo(mark);
          nlog = this.nlog;
          break;
        }
        case OP_SETCNT:
          log[nlog++] = ins.a | 0x40000000; log[nlog++] = regs[ins.a]; regs[ins.a] = 0;
          pc++;
          continue;
        case OP_MARK:
          log[nlog++] = ins.a | 0x40000000; log[nlog++] = regs[ins.a]; regs[ins.a] = pos;
          pc++;
          continue;
        case OP_EMPTY:
          // an iteration past the minimum that matched nothing fails (22.2.2.3.1 step 2.b)
          if (pos === regs[ins.a] && regs[ins.b] >= ins.c) break;
          pc++;
          continue;
        case OP_INC:
          log[nlog++] = ins.a | 0x40000000; log[nlog++] = regs[ins.a]; regs[ins.a]++;
          pc++;
          continue;
        case OP_CLEAR:
          this.nlog = nlog;
          for (let k = ins.a; k <= ins.b; k++) { this.set(0, 2 * k, -1); this.set(0, 2 * k + 1, -1); }
          log = this.log; nlog = this.nlog;
          pc++;
          continue;
        case OP_MATCH:
          this.nlog = nlog; this.steps = steps; this.work = work;
          this.depth--;
          return pos;
        default:
          break;
      }
      // failure: back to the last choice, undoing what was set since
      if (sp === 0) {
        this.nlog = nlog; this.steps = steps; this.work = work;
        this.depth--;
        return -1;
      }
      const to = stack[--sp];
      while (nlog > to) {
        const old = log[--nlog], k = log[--nlog];
        if (k & 0x40000000) regs[k & 0x3fffffff] = old; else caps[k] = old;
      }
      pos = stack[--sp];
      pc = stack[--sp];
    }
  }
}
