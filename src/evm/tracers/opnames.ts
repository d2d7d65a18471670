// geth's opcode names (core/vm/opcodes.go) where @ethereumjs/evm's differ.
const RENAMED: Record<string, string> = {
  SHA3: 'KECCAK256',
  PREVRANDAO: 'DIFFICULTY',
  RANDOM: 'DIFFICULTY',
};

export function gethOpName(name: string, code: number): string {
  if (name === 'INVALID' && code !== 0xfe) return `opcode 0x${code.toString(16)} not defined`;
  return RENAMED[name] ?? name;
}
