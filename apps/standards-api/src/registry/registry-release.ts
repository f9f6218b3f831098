// RegistryRelease moved below the registry and the content import, which both load a release (registry-release/);
// this path stays for the specs and benches that import it by path (tools/bench/search-index.bench.mjs reads older commits too).
export * from '../registry-release/registry-release';
