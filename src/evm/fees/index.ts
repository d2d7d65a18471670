// Subnet-EVM fees (reference subnet-evm.md §7): fee config, base-fee window, block gas cost and
// required tips, ACP-226 minimum block delay, gas price oracle and eth_feeHistory helpers.
export * from './feeConfig.js';
export * from './window.js';
export * from './blockGasCost.js';
export * from './minDelay.js';
export * from './oracle.js';
