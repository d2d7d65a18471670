// Subnet-EVM header: type, RLP (§5.3 layout), hash, JSON (§1.4). See header.ts.
export * from './header.js';
