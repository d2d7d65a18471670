import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { resolveConfig, ConfigError } from './config.js';
import { selfSignedCertificate } from '../node/certificate.js';
import { FLAGS, parseDuration, type FlagDef } from './flags.js';

const SUBNET = '217wrx8uXfeMatrqrv3q9fLqqd7UR3zx2CfFDngJvTYTcwt1wE';

/** A valid, non-default value for each flag type, as text and as its parsed value. */
function sample(def: FlagDef): { text: string; json: unknown; parsed: unknown } {
  switch (def.name) {
    case 'config-file':
    case 'config-file-content':
      return { text: '', json: '', parsed: '' };
    case 'config-file-content-type':
      return { text: 'json', json: 'json', parsed: 'json' };
    case 'network-id':
      return { text: 'fuji', json: 'fuji', parsed: 'fuji' };
    case 'db-type':
      return { text: 'memdb', json: 'memdb', parsed: 'memdb' };
    case 'log-format':
      return { text: 'json', json: 'json', parsed: 'json' };
    case 'chains-file':
    case 'chain-aliases-file-content':
    case 'vm-aliases-file-content':
    case 'genesis-file':
    case 'genesis-file-content':
    case 'upgrade-file':
    case 'upgrade-file-content':
    case 'bootstrap-ips': // one without the other is refused (tested below)
    case 'bootstrap-ids':
      return { text: '', json: '', parsed: '' };
    // true needs a key and certificate / is refused (tested below).
    case 'http-tls-enabled':
    case 'db-read-only':
      return { text: 'false', json: false, parsed: false };
    case 'chain-config-content':
    case 'subnet-config-content':
      return { text: 'e30=', json: 'e30=', parsed: 'e30=' }; // {}
    case 'track-subnets':
      return { text: SUBNET, json: SUBNET, parsed: SUBNET };
    case 'subnet-config-dir':
      return { text: tmpdir(), json: tmpdir(), parsed: tmpdir() };
    case 'public-ip':
      return { text: '10.1.2.3', json: '10.1.2.3', parsed: '10.1.2.3' };
    case 'http-busy-poll': // at most 1s (tested below)
      return { text: '150us', json: '150us', parsed: 0.15 };
  }
  switch (def.type) {
    case 'string':
      return { text: '/tmp/x y', json: '/tmp/x y', parsed: '/tmp/x y' };
    case 'bool':
      return { text: String(!def.default), json: !def.default, parsed: !def.default };
    case 'uint':
      return { text: '1234', json: 1234, parsed: 1234 };
    case 'int':
      return { text: '-3', json: -3, parsed: -3 };
    case 'duration':
      return { text: '1m30s', json: '1m30s', parsed: 90_000 };
    case 'list':
      return { text: 'a.test,b.test', json: ['a.test', 'b.test'], parsed: ['a.test', 'b.test'] };
    case 'level':
      return { text: 'debug', json: 'debug', parsed: 'DEBUG' };
    case 'json':
      return { text: '[{"name":"x"}]', json: [{ name: 'x' }], parsed: [{ name: 'x' }] };
  }
}

const testable = FLAGS.filter((f) => !['config-file', 'config-file-content', 'chains-file', 'chain-aliases-file-content', 'vm-aliases-file-content'].includes(f.name));

test('every flag works as --flag=value and as --flag value', () => {
  for (const def of testable) {
    const s = sample(def);
    const a = resolveConfig({ argv: [`--${def.name}=${s.text}`] });
    assert.deepEqual(a.raw[def.name], s.parsed, `--${def.name}=${s.text}`);
    const b = resolveConfig({ argv: [`--${def.name}`, s.text] });
    assert.deepEqual(b.raw[def.name], s.parsed, `--${def.name} ${s.text}`);
  }
});

test('every flag works as AVAGO_* variable, as a config file key, and as a library option (kebab and camel)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-cfg-'));
  try {
    for (const def of testable) {
      const s = sample(def);
      const env = { ['AVAGO_' + def.name.toUpperCase().replace(/-/g, '_')]: s.text };
      assert.deepEqual(resolveConfig({ argv: [], env }).raw[def.name], s.parsed, `env ${def.name}`);
      const file = join(dir, 'c.json');
      writeFileSync(file, JSON.stringify({ [def.name]: s.json }));
      assert.deepEqual(resolveConfig({ argv: [`--config-file=${file}`] }).raw[def.name], s.parsed, `file ${def.name}`);
      const content = Buffer.from(JSON.stringify({ [def.name]: s.json })).toString('base64');
      assert.deepEqual(resolveConfig({ argv: ['--config-file-content', content] }).raw[def.name], s.parsed, `content ${def.name}`);
      assert.deepEqual(resolveConfig({ options: { [def.name]: s.json } }).raw[def.name], s.parsed, `option ${def.name}`);
      const camel = def.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
      assert.deepEqual(resolveConfig({ options: { [camel]: s.json } }).raw[def.name], s.parsed, `option ${camel}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('precedence: command line > environment > config file > default', () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-cfg-'));
  try {
    const file = join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ 'http-port': 1111, 'log-level': 'warn', 'api-admin-enabled': true }));
    const c = resolveConfig({ argv: [`--config-file`, file, '--http-port=3333'], env: { AVAGO_HTTP_PORT: '2222', AVAGO_LOG_LEVEL: 'error' } });
    assert.equal(c.httpPort, 3333);
    assert.equal(c.logLevel, 'ERROR');
    assert.equal(c.apiAdminEnabled, true);
    assert.equal(c.apiInfoEnabled, true);
    // Empty variables count as unset.
    assert.equal(resolveConfig({ argv: [], env: { AVAGO_HTTP_PORT: '' } }).httpPort, 9650);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('defaults: 127.0.0.1:9650, ~/.powder, local network, LMDB, paths under the data dir', () => {
  const c = resolveConfig({ argv: [] });
  assert.equal(c.httpHost, '127.0.0.1');
  assert.equal(c.httpPort, 9650);
  assert.equal(c.dataDir, join(homedir(), '.powder'));
  assert.equal(c.networkID, 12345);
  assert.equal(c.networkName, 'local');
  assert.equal(c.dbType, 'lmdb');
  assert.equal(c.dbDir, join(c.dataDir, 'db'));
  assert.equal(c.stakingTlsCertFile, join(c.dataDir, 'staking/staker.crt'));
  assert.equal(c.healthCheckFrequencyMs, 30_000);
  assert.deepEqual(c.httpAllowedHosts, ['localhost']);
  assert.deepEqual(c.httpAllowedOrigins, ['*']);
  assert.equal(c.apiAdminEnabled, false);
  const d = resolveConfig({ argv: ['--data-dir=/tmp/pd', '--db-dir=$AVALANCHEGO_DATA_DIR/other'] });
  assert.equal(d.dbDir, '/tmp/pd/other');
  assert.equal(d.logDir, '/tmp/pd/logs');
});

test('bool flags: bare, =value, and a following literal', () => {
  assert.equal(resolveConfig({ argv: ['--api-admin-enabled'] }).apiAdminEnabled, true);
  assert.equal(resolveConfig({ argv: ['--api-info-enabled', 'false', '--http-port', '1'] }).apiInfoEnabled, false);
  assert.equal(resolveConfig({ argv: ['--api-info-enabled=0'] }).apiInfoEnabled, false);
});

test('durations: Go syntax, or nanoseconds as a JSON number', () => {
  assert.equal(parseDuration('1h2m3.5s'), 3_723_500);
  assert.equal(parseDuration('250ms'), 250);
  assert.equal(parseDuration(30_000_000_000), 30_000);
  assert.throws(() => parseDuration('10x'));
  assert.throws(() => parseDuration('30'));
  // Go's int64 nanoseconds: 2562047h is the longest whole-hour duration.
  assert.equal(parseDuration('2562047h'), 2562047 * 3_600_000);
  assert.throws(() => parseDuration('2562048h'), /^Error: time: invalid duration "2562048h"$/);
});

/** Each bad input: the error is a ConfigError, one line, naming what is wrong. */
const BAD: [string, Parameters<typeof resolveConfig>[0], RegExp][] = [
  ['unknown flag', { argv: ['--http-prot=1'] }, /^unknown flag: --http-prot \(did you mean --http-port\?\)$/],
  ['positional argument', { argv: ['start'] }, /^unexpected argument "start"/],
  ['missing value', { argv: ['--http-port'] }, /^flag needs an argument: --http-port$/],
  ['non-numeric port', { argv: ['--http-port=abc'] }, /^invalid argument "abc" for "--http-port" flag: strconv.ParseUint/],
  ['port out of range', { argv: ['--http-port', '70000'] }, /^invalid argument "70000" for "--http-port" flag: port out of range/],
  ['negative number', { argv: ['--dev-accounts=-1'] }, /"--dev-accounts" flag/],
  ['too many dev accounts', { argv: ['--dev-accounts=1000000000'] }, /^--dev-accounts: 1000000000 is more than 10000 accounts \(each is derived from the mnemonic at start\)$/],
  ['bad bool', { argv: ['--api-admin-enabled=maybe'] }, /^invalid argument "maybe" for "--api-admin-enabled" flag: strconv.ParseBool/],
  ['bad duration', { argv: ['--health-check-frequency=10x'] }, /^invalid argument "10x" for "--health-check-frequency" flag: time: unknown unit "x" in duration "10x"$/],
  ['bad level', { argv: ['--log-level=loud'] }, /^invalid argument "loud" for "--log-level" flag: unknown log level/],
  ['bad network', { argv: ['--network-id=moon'] }, /^--network-id: failed to parse network name: "moon"$/],
  ['AvalancheGo db type', { argv: ['--db-type=leveldb'] }, /^--db-type=leveldb is an AvalancheGo database Powder does not offer/],
  ['unknown db type', { argv: ['--db-type=sqlite'] }, /^--db-type: invalid db type: sqlite/],
  ['bad log format', { argv: ['--log-format=xml'] }, /^--log-format: unknown format mode: xml/],
  ['public IP not an IP', { argv: ['--public-ip=notanip'] }, /^--public-ip: ParseAddr\("notanip"\): unable to parse IP$/],
  ['public IP with a port', { argv: ['--public-ip=1.2.3.4:9651'] }, /^--public-ip: ParseAddr\("1\.2\.3\.4:9651"\): unable to parse IP$/],
  ['bad env', { argv: [], env: { AVAGO_HTTP_PORT: 'x' } }, /^invalid value "x" in AVAGO_HTTP_PORT \(flag "--http-port"\)/],
  ['missing config file', { argv: ['--config-file=/nonexistent/c.json'] }, /^--config-file: file does not exist: \/nonexistent\/c.json$/],
  ['non-json config content', { argv: ['--config-file-content=' + Buffer.from('{x').toString('base64')] }, /^--config-file-content is not valid JSON/],
  ['bad base64 config content', { argv: ['--config-file-content=%%%'] }, /^--config-file-content is not valid base64/],
  ['yaml content type', { argv: ['--config-file-content=e30=', '--config-file-content-type=yaml'] }, /^unsupported --config-file-content-type "yaml"/],
  ['config content not an object', { argv: ['--config-file-content=' + Buffer.from('[1]').toString('base64')] }, /must hold a JSON object/],
  ['unknown option', { options: { httpPrt: 1 } }, /^unknown option "httpPrt"$/],
  ['bad option value', { options: { httpPort: 'x' } }, /^invalid value "x" for option "http-port"/],
  ['bad chains flag', { argv: ['--chains={"a":1}'] }, /^--chains must be a JSON array/],
  ['bad chains json', { argv: ['--chains=[{'] }, /^invalid argument "\[\{" for "--chains" flag/],
  ['missing chains file', { argv: ['--chains-file=/nonexistent.json'] }, /^--chains-file: file does not exist/],
];

for (const [what, input, re] of BAD) {
  test(`bad input (${what}) → one clear line`, () => {
    assert.throws(
      () => resolveConfig(input),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError, `ConfigError, got ${e}`);
        assert.match((e as Error).message, re);
        assert.ok(!(e as Error).message.includes('\n'));
        return true;
      },
    );
  });
}

test('bad config files: invalid JSON, unknown key, wrong value type, YAML', () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-cfg-'));
  try {
    const cases: [string, string, RegExp][] = [
      ['a.json', '{"http-port": 1,', /^config file .*a\.json is not valid JSON/],
      ['b.json', '{"http-prot": 1}', /^unknown key "http-prot" in config file .*b\.json \(did you mean --http-port\?\)$/],
      ['c.json', '{"http-port": "x"}', /^invalid value "x" for "http-port" in config file .*c\.json: strconv.ParseUint/],
      ['d.json', '{"api-admin-enabled": "yes"}', /^invalid value "yes" for "api-admin-enabled" in config file/],
      ['e.json', '{"config-file": "x.json"}', /cannot be set inside config file/],
      ['f.yaml', 'http-port: 1', /Powder reads JSON config files/],
    ];
    for (const [name, text, re] of cases) {
      const file = join(dir, name);
      writeFileSync(file, text);
      assert.throws(() => resolveConfig({ argv: ['--config-file', file] }), (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.match((e as Error).message, re);
        return true;
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('flags of the real node for what Powder lacks: accepted (and checked), or a clear error', () => {
  const err = (argv: string[]) => {
    try {
      resolveConfig({ argv });
    } catch (e) {
      assert.ok(e instanceof ConfigError, String(e));
      return (e as Error).message;
    }
    assert.fail(`accepted: ${argv.join(' ')}`);
  };
  // Accepted without effect: a local node's AvalancheGo command line starts as it is.
  const c = resolveConfig({ argv: ['--sybil-protection-enabled=false', '--bootstrap-ips=', '--bootstrap-ids=', '--index-enabled', '--partial-sync-primary-network=false', '--db-config-file=/x', '--log-disable-display-plugin-logs', '--staking-host=10.0.0.1'] });
  assert.equal(c.indexEnabled, true);
  assert.equal(c.stakingHost, '10.0.0.1');
  assert.equal(c.raw['sybil-protection-enabled'], false);
  assert.match(err(['--db-read-only']), /^--db-read-only is not supported/);
  // Bootstrappers: checked as AvalancheGo reads them, then unused.
  const peer = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
  resolveConfig({ argv: [`--bootstrap-ips=127.0.0.1:9651,[::1]:9653`, `--bootstrap-ids=${peer},${peer}`] });
  assert.equal(err(['--bootstrap-ips=notanip', `--bootstrap-ids=${peer}`]), "couldn't parse bootstrap ip notanip: not an ip:port");
  assert.equal(err(['--bootstrap-ips=host:1', `--bootstrap-ids=${peer}`]), `couldn't parse bootstrap ip host:1: ParseAddr("host"): unable to parse IP`);
  assert.match(err(['--bootstrap-ips=1.2.3.4:9651', '--bootstrap-ids=garbage']), /^couldn't parse bootstrap peer id garbage: /);
  assert.equal(err(['--bootstrap-ips=1.2.3.4:9651']), 'expected the number of bootstrapIPs (1) to match the number of bootstrapIDs (0)');
  for (const k of ['genesis-file', 'genesis-file-content', 'upgrade-file', 'upgrade-file-content']) {
    assert.match(err([`--${k}=x`]), new RegExp(`^--${k} is not supported: Powder has no primary network`));
  }
  // --track-subnets: CB58 IDs, the primary network refused, duplicates and empty items dropped.
  assert.deepEqual(resolveConfig({ argv: [`--track-subnets=${SUBNET},,${SUBNET}`] }).trackSubnets, [SUBNET]);
  assert.deepEqual(resolveConfig({ argv: [] }).trackSubnets, []);
  assert.match(err(['--track-subnets=nope']), /^--track-subnets: couldn't parse subnetID "nope": /);
  assert.equal(err(['--track-subnets=11111111111111111111111111111111LpoYY']), '--track-subnets: cannot track primary network');
  // --chain-config-content: Go's map[string]chains.ChainConfig with base64 []byte fields.
  const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64');
  const cc = resolveConfig({ argv: [`--chain-config-content=${b64({ dev: { Config: b64({ 'log-level': 'debug' }), upgrade: b64({ precompileUpgrades: [] }) }, other: null })}`] }).chainConfigContent!;
  assert.deepEqual(JSON.parse(cc.get('dev')!.config!.toString()), { 'log-level': 'debug' });
  assert.deepEqual(JSON.parse(cc.get('dev')!.upgrade!.toString()), { precompileUpgrades: [] }, 'field names match without case');
  assert.equal(cc.has('other'), false);
  assert.equal(resolveConfig({ argv: [] }).chainConfigContent, undefined);
  assert.match(err(['--chain-config-content=%%%']), /^--chain-config-content: unable to decode base64 content: illegal base64 data at input byte 0/);
  assert.equal(err([`--chain-config-content=${b64('{nope')}`]), "--chain-config-content: could not unmarshal JSON: invalid character 'n' looking for beginning of object key string");
  assert.equal(err([`--chain-config-content=${b64('{"dev":')}`]), '--chain-config-content: could not unmarshal JSON: unexpected end of JSON input');
  assert.match(err([`--chain-config-content=${b64([1])}`]), /cannot unmarshal array into Go value of type map\[string\]chains.ChainConfig/);
  assert.match(err([`--chain-config-content=${b64({ dev: { Config: 5 } })}`]), /cannot unmarshal number into Go struct field ChainConfig.Config of type \[\]uint8/);
  // Subnet configs are read and checked.
  const dir = mkdtempSync(join(tmpdir(), 'powder-subnets-'));
  try {
    assert.equal(err([`--subnet-config-dir=${join(dir, 'missing')}`]), `cannot read directory: ${join(dir, 'missing')}`);
    writeFileSync(join(dir, `${SUBNET}.json`), '{"validatorOnly": true}');
    resolveConfig({ argv: [`--subnet-config-dir=${dir}`] });
    writeFileSync(join(dir, `${SUBNET}.json`), '{oops');
    assert.match(err([`--subnet-config-dir=${dir}`, `--track-subnets=${SUBNET}`]), /^subnet config .*: could not unmarshal JSON: /);
    // Only the tracked subnets' files are read (config.go getSubnetConfigsFromDir).
    resolveConfig({ argv: [`--subnet-config-dir=${dir}`] });
    const other = '2bRCr6B4MiEfSjidDwxDpdCyviwnfUVqB2HGwhm947w9YYqb7r';
    writeFileSync(join(dir, `${SUBNET}.json`), '{}');
    mkdirSync(join(dir, `${other}.json`));
    resolveConfig({ argv: [`--subnet-config-dir=${dir}`, `--track-subnets=${SUBNET}`] });
    assert.equal(err([`--subnet-config-dir=${dir}`, `--track-subnets=${other}`]), `"${other}.json" is a directory, expected a file`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.match(err([`--subnet-config-content=${b64('[')}`]), /^--subnet-config-content: could not unmarshal JSON: /);
  assert.match(err([`--subnet-config-content=${b64({ notAnID: {} })}`]), /^--subnet-config-content: couldn't parse subnetID "notAnID": /);
  resolveConfig({ argv: [`--subnet-config-content=${b64({ [SUBNET]: { validatorOnly: true } })}`] });
  // HTTPS needs a usable key and certificate.
  assert.match(err(['--http-tls-enabled']), /^--http-tls-enabled needs --http-tls-key-file or --http-tls-key-file-content$/);
  assert.match(err(['--http-tls-enabled', '--http-tls-key-file=/nonexistent/k.pem', '--http-tls-cert-file=/nonexistent/c.pem']), /^--http-tls-key-file: open \/nonexistent\/k.pem: no such file or directory$/);
  assert.match(err(['--http-tls-enabled', `--http-tls-key-file-content=${b64('junk')}`, `--http-tls-cert-file-content=${b64('junk')}`]), /^--http-tls-enabled: the key or certificate is not usable PEM: /);
  const pem = () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return { key: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string, cert: selfSignedCertificate(privateKey) };
  };
  const [a, b] = [pem(), pem()];
  resolveConfig({ argv: ['--http-tls-enabled', `--http-tls-key-file-content=${b64(a.key)}`, `--http-tls-cert-file-content=${b64(a.cert)}`] });
  assert.equal(err(['--http-tls-enabled', `--http-tls-key-file-content=${b64(a.key)}`, `--http-tls-cert-file-content=${b64(b.cert)}`]), '--http-tls-enabled: tls: private key does not match public key');
});

test('--log-display-level set to "" is an unknown level, as on AvalancheGo (an empty variable is unset)', () => {
  assert.throws(() => resolveConfig({ argv: ['--log-display-level='] }), { message: 'invalid argument "" for "--log-display-level" flag: unknown log level: ""' });
  assert.throws(() => resolveConfig({ options: { 'log-display-level': '' } }), { message: /unknown log level: ""$/ });
  const c = resolveConfig({ argv: ['--log-level=warn'], env: { AVAGO_LOG_DISPLAY_LEVEL: '' } });
  assert.equal(c.logDisplayLevel, 'WARN');
});

test('--data-dir: $VARS are expanded from the environment, and the path defaults follow', () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-cfg-'));
  const saved = process.env.POWDER_TEST_DATA_ROOT;
  process.env.POWDER_TEST_DATA_ROOT = dir;
  try {
    for (const v of ['$POWDER_TEST_DATA_ROOT/node', '${POWDER_TEST_DATA_ROOT}/node']) {
      const c = resolveConfig({ argv: [`--data-dir=${v}`] });
      assert.equal(c.dataDir, join(dir, 'node'), v);
      assert.equal(c.dbDir, join(dir, 'node', 'db'), v);
      assert.equal(c.logDir, join(dir, 'node', 'logs'), v);
    }
  } finally {
    if (saved === undefined) delete process.env.POWDER_TEST_DATA_ROOT;
    else process.env.POWDER_TEST_DATA_ROOT = saved;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--sybil-protection-enabled=false is refused on mainnet and fuji', () => {
  for (const net of ['mainnet', 'fuji', '1', 'network-5']) {
    assert.throws(() => resolveConfig({ argv: [`--network-id=${net}`, '--sybil-protection-enabled=false'] }), { message: 'sybil protection disabled on public network' }, net);
  }
  assert.equal(resolveConfig({ argv: ['--network-id=local', '--sybil-protection-enabled=false'] }).networkID, 12345);
  assert.equal(resolveConfig({ argv: ['--network-id=mainnet'] }).networkID, 1);
});

test('--http-busy-poll: a duration from 0 to 1s, 300us by default; anything else is a clear error', () => {
  assert.equal(resolveConfig({ argv: [] }).httpBusyPollMs, 0.3);
  // A library node (no command line) polls only when asked: its client shares its thread.
  assert.equal(resolveConfig({ options: {} }).httpBusyPollMs, 0);
  assert.equal(resolveConfig({ options: { 'http-busy-poll': '300us' } }).httpBusyPollMs, 0.3);
  assert.equal(resolveConfig({ argv: ['--http-busy-poll=0'] }).httpBusyPollMs, 0);
  assert.equal(resolveConfig({ argv: ['--http-busy-poll=1ms'] }).httpBusyPollMs, 1);
  assert.equal(resolveConfig({ argv: ['--http-busy-poll=1s'] }).httpBusyPollMs, 1000);
  assert.equal(resolveConfig({ options: { httpBusyPoll: '50us' } }).httpBusyPollMs, 0.05);
  const err = (v: string) => {
    try {
      resolveConfig({ argv: [`--http-busy-poll=${v}`] });
    } catch (e) {
      assert.ok(e instanceof ConfigError || e instanceof Error);
      return (e as Error).message;
    }
    assert.fail(`accepted: ${v}`);
  };
  assert.equal(err('-1ms'), 'invalid argument "-1ms" for "--http-busy-poll" flag: must be >= 0');
  assert.equal(err('1.5s'), '--http-busy-poll: 1500ms is longer than the largest poll, 1s');
  assert.match(err('fast'), /time: invalid duration "fast"/);
  assert.match(err('300'), /time: missing unit in duration "300"/);
});

test("durations: Go's time.ParseDuration error texts and units", () => {
  const err = (v: string) => {
    try {
      resolveConfig({ argv: [`--health-check-frequency=${v}`] });
    } catch (e) {
      return (e as Error).message.replace('invalid argument ' + JSON.stringify(v) + ' for "--health-check-frequency" flag: ', '');
    }
    assert.fail(`accepted: ${v}`);
  };
  assert.equal(err('30'), 'time: missing unit in duration "30"');
  assert.equal(err('1h30'), 'time: missing unit in duration "1h30"');
  assert.equal(err('1.5.5s'), 'time: missing unit in duration "1.5.5s"');
  assert.equal(err('10x'), 'time: unknown unit "x" in duration "10x"');
  assert.equal(err('5secs'), 'time: unknown unit "secs" in duration "5secs"');
  assert.equal(err('soon'), 'time: invalid duration "soon"');
  assert.equal(err('.s'), 'time: invalid duration ".s"');
  assert.equal(err(''), 'time: invalid duration ""');
  // Go takes both micro signs (U+00B5, U+03BC), "0" with a sign, and a bare trailing dot.
  assert.equal(resolveConfig({ argv: ['--health-check-frequency=1500\u03bcs'] }).healthCheckFrequencyMs, 1.5);
  assert.equal(resolveConfig({ argv: ['--health-check-frequency=1500\u00b5s'] }).healthCheckFrequencyMs, 1.5);
  assert.equal(resolveConfig({ argv: ['--health-check-frequency=+0'] }).healthCheckFrequencyMs, 0);
  assert.equal(resolveConfig({ argv: ['--health-check-frequency=2.s'] }).healthCheckFrequencyMs, 2000);
});
