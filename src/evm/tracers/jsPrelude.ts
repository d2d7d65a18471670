// The JavaScript a geth JS tracer runs beside (evaluated in the tracer's QuickJS context before the
// tracer's own code): geth's helpers (bigInt, toHex, toWord, toAddress, toContract, toContract2,
// isPrecompiled, slice) and the objects geth hands the tracer's functions — `log` for step and
// fault, `db`, the call frame for enter and the frame result for exit, `ctx` for result — built
// over the host functions jsTracer.ts defines in `__powderHost` (which the prelude takes and
// removes from the global scope). Their texts and types follow geth's eth/tracers/js/goja.go.
//
// bigInt follows the API of BigInteger.js (the library geth loads into goja) over the engine's
// native BigInt: its methods, and `toJSON` as the decimal text.
export const JS_TRACER_PRELUDE = String.raw`
(function (global) {
  'use strict';
  var H = global.__powderHost;
  delete global.__powderHost;

  // ---- bigInt (BigInteger.js's API) ----
  function BigInteger(v) { Object.defineProperty(this, '__v', { value: v }); }
  function big(x, radix) {
    if (x instanceof BigInteger) return x;
    if (typeof x === 'undefined') return ZERO;
    if (typeof x === 'bigint') return new BigInteger(x);
    if (typeof x === 'number') {
      if (!isFinite(x) || Math.floor(x) !== x) throw new Error('Invalid integer: ' + x);
      return new BigInteger(BigInt(x));
    }
    var s = String(x).trim();
    var r = radix === undefined ? 10 : Number(radix);
    var neg = false;
    if (s[0] === '-') { neg = true; s = s.slice(1); }
    if (s.length === 0) throw new Error('Invalid integer: ' + x);
    var v;
    if (r === 10) { if (!/^[0-9]+$/.test(s)) throw new Error('Invalid integer: ' + x); v = BigInt(s); }
    else if (r === 16) { if (!/^[0-9a-fA-F]+$/.test(s)) throw new Error('Invalid integer: ' + x); v = BigInt('0x' + s); }
    else if (r === 2) { if (!/^[01]+$/.test(s)) throw new Error('Invalid integer: ' + x); v = BigInt('0b' + s); }
    else if (r === 8) { if (!/^[0-7]+$/.test(s)) throw new Error('Invalid integer: ' + x); v = BigInt('0o' + s); }
    else {
      v = 0n;
      var R = BigInt(r);
      for (var i = 0; i < s.length; i++) {
        var d = parseInt(s[i], r);
        if (isNaN(d)) throw new Error('Invalid integer: ' + x);
        v = v * R + BigInt(d);
      }
    }
    return new BigInteger(neg ? -v : v);
  }
  var ZERO = new BigInteger(0n);
  var V = function (x) { return big(x).__v; };
  var P = BigInteger.prototype;
  P.add = P.plus = function (o) { return new BigInteger(this.__v + V(o)); };
  P.subtract = P.minus = function (o) { return new BigInteger(this.__v - V(o)); };
  P.multiply = P.times = function (o) { return new BigInteger(this.__v * V(o)); };
  P.divide = P.over = function (o) { var d = V(o); if (d === 0n) throw new Error('Cannot divide by zero'); return new BigInteger(this.__v / d); };
  P.mod = P.remainder = function (o) { var d = V(o); if (d === 0n) throw new Error('Cannot divide by zero'); return new BigInteger(this.__v % d); };
  P.divmod = function (o) { return { quotient: this.divide(o), remainder: this.mod(o) }; };
  P.pow = function (o) { var e = V(o); return e < 0n ? ZERO : new BigInteger(this.__v ** e); };
  P.modPow = function (e, m) {
    var mm = V(m); if (mm === 0n) throw new Error('Cannot take modPow with modulus 0');
    var r = 1n, b = ((this.__v % mm) + mm) % mm, x = V(e);
    while (x > 0n) { if (x & 1n) r = (r * b) % mm; b = (b * b) % mm; x >>= 1n; }
    return new BigInteger(r);
  };
  P.square = function () { return new BigInteger(this.__v * this.__v); };
  P.abs = function () { return new BigInteger(this.__v < 0n ? -this.__v : this.__v); };
  P.negate = function () { return new BigInteger(-this.__v); };
  P.next = function () { return new BigInteger(this.__v + 1n); };
  P.prev = function () { return new BigInteger(this.__v - 1n); };
  P.compare = P.compareTo = function (o) { var b = V(o); return this.__v === b ? 0 : this.__v > b ? 1 : -1; };
  P.compareAbs = function (o) { var a = this.__v < 0n ? -this.__v : this.__v, b = V(o); if (b < 0n) b = -b; return a === b ? 0 : a > b ? 1 : -1; };
  P.equals = P.eq = function (o) { return this.__v === V(o); };
  P.notEquals = P.neq = function (o) { return this.__v !== V(o); };
  P.greater = P.gt = function (o) { return this.__v > V(o); };
  P.greaterOrEquals = P.geq = function (o) { return this.__v >= V(o); };
  P.lesser = P.lt = function (o) { return this.__v < V(o); };
  P.lesserOrEquals = P.leq = function (o) { return this.__v <= V(o); };
  P.isZero = function () { return this.__v === 0n; };
  P.isPositive = function () { return this.__v > 0n; };
  P.isNegative = function () { return this.__v < 0n; };
  P.isEven = function () { return (this.__v & 1n) === 0n; };
  P.isOdd = function () { return (this.__v & 1n) === 1n; };
  P.isUnit = function () { return this.__v === 1n || this.__v === -1n; };
  P.shiftLeft = function (n) { var k = BigInt(Number(n)); return new BigInteger(k >= 0n ? this.__v << k : this.__v >> -k); };
  P.shiftRight = function (n) { var k = BigInt(Number(n)); return new BigInteger(k >= 0n ? this.__v >> k : this.__v << -k); };
  P.and = function (o) { return new BigInteger(this.__v & V(o)); };
  P.or = function (o) { return new BigInteger(this.__v | V(o)); };
  P.xor = function (o) { return new BigInteger(this.__v ^ V(o)); };
  P.not = function () { return new BigInteger(~this.__v); };
  P.bitLength = function () { var a = this.__v < 0n ? -this.__v - 1n : this.__v; return new BigInteger(BigInt(a === 0n ? 0 : a.toString(2).length) + (this.__v < 0n ? 1n : 0n)); };
  P.toString = function (radix) { return this.__v.toString(radix === undefined ? 10 : Number(radix)); };
  P.toJSON = function () { return this.__v.toString(); };
  P.valueOf = P.toJSNumber = function () { return Number(this.__v); };
  Object.defineProperty(P, 'sign', { get: function () { return this.__v < 0n; } });
  big.zero = ZERO;
  big.one = new BigInteger(1n);
  big.minusOne = new BigInteger(-1n);
  big.isInstance = function (x) { return x instanceof BigInteger; };
  big.max = function (a, b) { return big(a).greater(b) ? big(a) : big(b); };
  big.min = function (a, b) { return big(a).lesser(b) ? big(a) : big(b); };
  big.gcd = function (a, b) { var x = V(a), y = V(b); if (x < 0n) x = -x; if (y < 0n) y = -y; while (y) { var t = x % y; x = y; y = t; } return new BigInteger(x); };
  big.lcm = function (a, b) { var x = V(a), y = V(b); var g = big.gcd(x, y).__v; var m = x * y; if (m < 0n) m = -m; return new BigInteger(g === 0n ? 0n : m / g); };
  // What the host hands over as hexadecimal text: a bigInt.
  var fromHex = function (h) { return new BigInteger(BigInt('0x' + (h || '0'))); };

  // ---- bytes: Uint8Arrays in the tracer, hexadecimal text across to the host ----
  var HEX = '0123456789abcdef';
  function hexOf(b) { var s = ''; for (var i = 0; i < b.length; i++) s += HEX[b[i] >> 4] + HEX[b[i] & 15]; return s; }
  function bytes(ab) { return new Uint8Array(ab); }
  // geth's common.FromHex: an optional 0x, an odd length padded in front, decoding up to a bad digit.
  function fromHexText(s) {
    if (s.length >= 2 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X')) s = s.slice(2);
    if (s.length % 2 === 1) s = '0' + s;
    var out = [];
    for (var i = 0; i < s.length; i += 2) {
      var hi = parseInt(s[i], 16), lo = parseInt(s[i + 1], 16);
      if (isNaN(hi) || isNaN(lo)) break;
      out.push(hi * 16 + lo);
    }
    return new Uint8Array(out);
  }
  // geth's fromBuf: a hex string (where allowed), an array of numbers, or a Uint8Array.
  function buf(x, allowString) {
    if (typeof x === 'string' || x instanceof String) {
      if (allowString) return fromHexText(String(x));
    } else if (Array.isArray(x)) {
      return Uint8Array.from(x, function (v) { return Number(v) & 255; });
    } else if (x instanceof Uint8Array) {
      return x;
    }
    return H.fail('invalid buffer type');
  }
  // common.BytesToAddress / BytesToHash: the last n bytes, zeros in front.
  function lastBytes(b, n) {
    var out = new Uint8Array(n);
    if (b.length >= n) out.set(b.subarray(b.length - n)); else out.set(b, n - b.length);
    return out;
  }
  var addrHex = function (x, allowString) { return hexOf(lastBytes(buf(x, allowString), 20)); };

  global.bigInt = big;
  global.toHex = function (v) { return '0x' + hexOf(buf(v, false)); };
  global.toWord = function (v) { return lastBytes(buf(v, true), 32); };
  global.toAddress = function (v) { return lastBytes(buf(v, true), 20); };
  global.toContract = function (from, nonce) { return bytes(H.contractAddress(addrHex(from, true), Number(nonce))); };
  global.toContract2 = function (from, salt, initcode) { return bytes(H.contract2Address(addrHex(from, true), String(salt), hexOf(buf(initcode, true)))); };
  global.isPrecompiled = function (v) { return H.isPrecompiled(addrHex(v, true)); };
  global.slice = function (v, start, end) {
    var b = buf(v, false);
    start = Number(start); end = Number(end);
    if (start < 0 || start > end || end > b.length) return H.fail('Tracer accessed out of bound memory: available ' + b.length + ', offset ' + start + ', size ' + (end - start));
    return b.slice(start, end);
  };

  // ---- the objects geth hands the tracer ----
  // The step's numbers, handed over with each step and fault (jsTracer.ts stepNumbers):
  // pc, opcode, gas, cost, depth, refund, stack length, memory length, whether it has an error.
  var S = new Float64Array(9);
  var names = [];
  var log = {
    op: {
      toNumber: function () { return S[1]; },
      toString: function () { var n = names[S[1]]; return n === undefined ? (names[S[1]] = H.opName()) : n; },
      isPush: function () { return S[1] >= 0x5f && S[1] <= 0x7f; },
    },
    stack: {
      peek: function (i) { return fromHex(H.peek(Number(i))); },
      length: function () { return S[6]; },
    },
    memory: {
      slice: function (a, b) { return bytes(H.memorySlice(Number(a), Number(b))); },
      getUint: function (a) { return fromHex(H.memoryWord(Number(a))); },
      length: function () { return S[7]; },
    },
    contract: {
      getCaller: function () { return bytes(H.caller()); },
      getAddress: function () { return bytes(H.address()); },
      getValue: function () { return fromHex(H.value()); },
      getInput: function () { return bytes(H.input()); },
    },
    getPC: function () { return S[0]; },
    getGas: function () { return S[2]; },
    getCost: function () { return S[3]; },
    getDepth: function () { return S[4]; },
    getRefund: function () { return S[5]; },
    getError: function () { return S[8] ? H.error() : undefined; },
  };
  var db = {
    getBalance: function (a) { return fromHex(H.balance(addrHex(a, false))); },
    getNonce: function (a) { return H.nonce(addrHex(a, false)); },
    getCode: function (a) { return bytes(H.code(addrHex(a, false))); },
    getState: function (a, h) { return bytes(H.state(addrHex(a, false), hexOf(lastBytes(buf(h, false), 32)))); },
    exists: function (a) { return H.exists(addrHex(a, false)); },
  };
  var frame = {
    getType: function () { return H.frameType(); },
    getFrom: function () { return bytes(H.frameFrom()); },
    getTo: function () { return bytes(H.frameTo()); },
    getInput: function () { return bytes(H.frameInput()); },
    getGas: function () { return H.frameGas(); },
    getValue: function () { var v = H.frameValue(); return v === null ? undefined : fromHex(v); },
  };
  var frameResult = {
    getGasUsed: function () { return H.frameGasUsed(); },
    getOutput: function () { return bytes(H.frameOutput()); },
    getError: function () { var e = H.frameError(); return e === null ? undefined : e; },
  };
  // geth's ctx: buffers, numbers and bigInts by field (the host sends hex text for the first and last).
  var CTX_BUFFERS = { from: 1, to: 1, input: 1, output: 1, blockHash: 1, txHash: 1 };
  var CTX_BIGS = { value: 1, gasPrice: 1 };
  function context() {
    var raw = JSON.parse(H.context());
    var out = {};
    for (var k in raw) out[k] = CTX_BUFFERS[k] ? fromHexText(raw[k]) : CTX_BIGS[k] ? fromHex(raw[k]) : raw[k];
    return out;
  }

  var tracer;
  global.__powder = {
    // The tracer's code as geth evaluates it, '(' + code + ')', then the checks of newJsTracer.
    load: function (code, config) {
      var obj = (0, eval)('(' + code + ')');
      if (obj === null || obj === undefined) return 'nil';
      obj = Object(obj);
      if (typeof obj.result !== 'function') return 'trace object must expose a function result()';
      if (typeof obj.fault !== 'function') return 'trace object must expose a function fault()';
      if ((typeof obj.enter === 'function') !== (typeof obj.exit === 'function')) return 'trace object must expose either both or none of enter() and exit()';
      tracer = obj;
      if (typeof obj.setup === 'function') obj.setup(config);
      return (typeof obj.step === 'function' ? 'step ' : '') + (typeof obj.enter === 'function' ? 'frames' : '');
    },
    step: function (numbers) { S = new Float64Array(numbers); tracer.step(log, db); },
    fault: function (numbers) { S = new Float64Array(numbers); tracer.fault(log, db); },
    enter: function () { tracer.enter(frame); },
    exit: function () { tracer.exit(frameResult); },
    result: function () { var r = tracer.result(context(), db); var s = JSON.stringify(r); return s === undefined ? 'null' : s; },
  };
})(globalThis);
`;
