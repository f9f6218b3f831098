// The records' representations moved with RegistryRelease (registry-release/); this path stays for the specs and
// benches that import it by path (tools/bench/search-index.bench.mjs reads older commits too).
export * from '../registry-release/registry-records';
