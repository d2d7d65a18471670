// Key files for the tests: the Web3 Secret Storage definition's vectors and files from geth's own
// test data (accounts/keystore/testdata), with their passwords and keys.

/** The Web3 Secret Storage definition's test vectors (password "testpassword"), as in geth's testdata/v3_test_vector.json. */
export const SPEC_PRIV = '7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d';
export const SPEC_ADDRESS = '0x008aeeda4d805471df9b2a5b0f38a0c3bcba786b';
export const SPEC_PBKDF2 = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '6087dab2f9fdbbfaddc31a909735c1e6' },
    ciphertext: '5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46',
    kdf: 'pbkdf2',
    kdfparams: { c: 262144, dklen: 32, prf: 'hmac-sha256', salt: 'ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd' },
    mac: '517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
};
export const SPEC_SCRYPT = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '83dbcc02d8ccb40e466191a123791e0e' },
    ciphertext: 'd172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c',
    kdf: 'scrypt',
    kdfparams: { dklen: 32, n: 262144, r: 1, p: 8, salt: 'ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19' },
    mac: '2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
};
/** geth's accounts/keystore/testdata/keystore/aaa (password "foobar"): a file geth wrote (scrypt n=8, p=16). */
export const GETH_AAA = {
  address: 'f466859ead1932d743d622cb74fc058882e8648a',
  crypto: {
    cipher: 'aes-128-ctr',
    ciphertext: 'cb664472deacb41a2e995fa7f96fe29ce744471deb8d146a0e43c7898c9ddd4d',
    cipherparams: { iv: 'dfd9ee70812add5f4b8f89d0811c9158' },
    kdf: 'scrypt',
    kdfparams: { dklen: 32, n: 8, p: 16, r: 8, salt: '0d6769bf016d45c479213990d6a08d938469c4adad8a02ce507b4a4e7b7739f1' },
    mac: 'bac9af994b15a45dd39669fc66f9aa8a3b9dd8c22cb16e4d8d7ea089d0f1a1a9',
  },
  id: '472e8b3d-afb6-45b5-8111-72c89895099a',
  version: 3,
};
export const GETH_AAA_PRIV = '539f9b4106fb452408e1ee43d177077f057a8fdc1e1fad92c61e68982b4e3c4b';
/** geth's testdata/v1_test_vector.json "test1" (password "g"). */
export const V1 = {
  Crypto: {
    cipher: 'aes-128-cbc',
    cipherparams: { iv: '35337770fc2117994ecdcad026bccff4' },
    ciphertext: '6143d3192db8b66eabd693d9c4e414dcfaee52abda451af79ccf474dafb35f1bfc7ea013aa9d2ee35969a1a2e8d752d0',
    kdf: 'scrypt',
    kdfparams: { dklen: 32, n: 262144, p: 1, r: 8, salt: '9afcddebca541253a2f4053391c673ff9fe23097cd8555d149d929e4ccf1257f' },
    mac: '3f3d5af884b17a100b0b3232c0636c230a54dc2ac8d986227219b0dd89197644',
    version: '1',
  },
  address: 'cb61d5a9c4896fb9658090b597ef0e7be6f7b67e',
  id: 'e25f7c1f-d318-4f29-b62c-687190d4d299',
  version: '1',
};
