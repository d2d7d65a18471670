// The syntax error Go's encoding/json reports for a body, found by its own scanner's rules
// (encoding/json/scanner.go, as json.Decoder runs it over the first value): every state of the
// scanner with its exact context text, on the body's BYTES (the offending byte is quoted as Go's
// quoteChar quotes it: a byte ≥ 0x80 is read as the rune U+0080–U+00FF). Only run when JSON.parse
// has already refused a body, so it costs nothing on good requests.
import { goQuoteRune } from './goQuote.js';

const enum P {
  ObjectKey,
  ObjectValue,
  ArrayValue,
}

/** encoding/json's quoteChar. */
function quoteChar(c: number): string {
  return goQuoteRune(String.fromCharCode(c));
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

type Step = (c: number) => number | string;

/**
 * Go's error for the first JSON value of `b`: `invalid character … <context>`, `unexpected EOF`
 * when the bytes end inside the value, `EOF` when there is none. When the first value is valid, the
 * number of bytes it spans (whatever follows it is not read: `01` is the value `0`).
 */
export function goSyntaxErrorOf(b: Uint8Array): string | number {
  const stack: P[] = [];
  let done = false;
  let started = false;
  const err = (c: number, context: string) => `invalid character ${quoteChar(c)} ${context}`;
  // Each state returns 0 to go on, or an error text.
  let step: Step;

  const endValue: Step = (c) => {
    const n = stack.length;
    if (n === 0) {
      done = true;
      return 0;
    }
    if (isSpace(c)) {
      step = endValue;
      return 0;
    }
    switch (stack[n - 1]) {
      case P.ObjectKey:
        if (c === 0x3a) {
          stack[n - 1] = P.ObjectValue;
          step = beginValue;
          return 0;
        }
        return err(c, 'after object key');
      case P.ObjectValue:
        if (c === 0x2c) {
          stack[n - 1] = P.ObjectKey;
          step = beginString;
          return 0;
        }
        if (c === 0x7d) return pop();
        return err(c, 'after object key:value pair');
      default:
        if (c === 0x2c) {
          step = beginValue;
          return 0;
        }
        if (c === 0x5d) return pop();
        return err(c, 'after array element');
    }
  };
  const pop = (): number => {
    stack.pop();
    step = endValue;
    if (stack.length === 0) done = true;
    return 0;
  };
  const beginValue: Step = (c) => {
    if (isSpace(c)) return 0;
    started = true;
    switch (c) {
      case 0x7b:
        stack.push(P.ObjectKey);
        step = beginStringOrEmpty;
        return 0;
      case 0x5b:
        stack.push(P.ArrayValue);
        step = beginValueOrEmpty;
        return 0;
      case 0x22:
        step = inString;
        return 0;
      case 0x2d:
        step = neg;
        return 0;
      case 0x30:
        step = zero;
        return 0;
      case 0x74:
        step = literal('true', 1);
        return 0;
      case 0x66:
        step = literal('false', 1);
        return 0;
      case 0x6e:
        step = literal('null', 1);
        return 0;
    }
    if (c >= 0x31 && c <= 0x39) {
      step = one;
      return 0;
    }
    return err(c, 'looking for beginning of value');
  };
  const beginValueOrEmpty: Step = (c) => {
    if (isSpace(c)) return 0;
    if (c === 0x5d) return endValue(c);
    return beginValue(c);
  };
  const beginStringOrEmpty: Step = (c) => {
    if (isSpace(c)) return 0;
    if (c === 0x7d) {
      stack[stack.length - 1] = P.ObjectValue;
      return endValue(c);
    }
    return beginString(c);
  };
  const beginString: Step = (c) => {
    if (isSpace(c)) return 0;
    if (c === 0x22) {
      step = inString;
      return 0;
    }
    return err(c, 'looking for beginning of object key string');
  };
  const inString: Step = (c) => {
    if (c === 0x22) {
      step = endValue;
      return 0;
    }
    if (c === 0x5c) {
      step = inStringEsc;
      return 0;
    }
    if (c < 0x20) return err(c, 'in string literal');
    return 0;
  };
  const inStringEsc: Step = (c) => {
    if (c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74 || c === 0x5c || c === 0x2f || c === 0x22) {
      step = inString;
      return 0;
    }
    if (c === 0x75) {
      step = escU(4);
      return 0;
    }
    return err(c, 'in string escape code');
  };
  const escU =
    (left: number): Step =>
    (c) => {
      if (!isHex(c)) return err(c, 'in \\u hexadecimal character escape');
      step = left === 1 ? inString : escU(left - 1);
      return 0;
    };
  const neg: Step = (c) => {
    if (c === 0x30) {
      step = zero;
      return 0;
    }
    if (c >= 0x31 && c <= 0x39) {
      step = one;
      return 0;
    }
    return err(c, 'in numeric literal');
  };
  const one: Step = (c) => {
    if (isDigit(c)) return 0;
    return zero(c);
  };
  const zero: Step = (c) => {
    if (c === 0x2e) {
      step = dot;
      return 0;
    }
    if (c === 0x65 || c === 0x45) {
      step = exp;
      return 0;
    }
    return endValue(c);
  };
  const dot: Step = (c) => {
    if (isDigit(c)) {
      step = dot0;
      return 0;
    }
    return err(c, 'after decimal point in numeric literal');
  };
  const dot0: Step = (c) => {
    if (isDigit(c)) return 0;
    if (c === 0x65 || c === 0x45) {
      step = exp;
      return 0;
    }
    return endValue(c);
  };
  const exp: Step = (c) => {
    if (c === 0x2b || c === 0x2d) {
      step = expSign;
      return 0;
    }
    return expSign(c);
  };
  const expSign: Step = (c) => {
    if (isDigit(c)) {
      step = exp0;
      return 0;
    }
    return err(c, 'in exponent of numeric literal');
  };
  const exp0: Step = (c) => {
    if (isDigit(c)) return 0;
    return endValue(c);
  };
  const literal =
    (word: string, at: number): Step =>
    (c) => {
      const want = word.charCodeAt(at);
      if (c !== want) return err(c, `in literal ${word} (expecting ${quoteChar(want)})`);
      step = at + 1 === word.length ? endValue : literal(word, at + 1);
      return 0;
    };

  step = beginValue;
  for (let i = 0; i < b.length; i++) {
    const wasOpen = stack.length > 0;
    const r = step(b[i]);
    if (r !== 0) return r as string;
    // A container closes with its byte; a scalar ends before the byte that follows it.
    if (done) return wasOpen ? i + 1 : i;
  }
  if (!started) return 'EOF';
  // The bytes ended: a number (or a value) complete at the top level is whole; anything else is not.
  return stack.length === 0 && (step === endValue || step === one || step === zero || step === dot0 || step === exp0) ? b.length : 'unexpected EOF';
}
