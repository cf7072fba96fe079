// Used by scripts/bundle.mjs, and by test/cli/bundle.test.ts to build the bundle it checks.
import { dirname, join, resolve, sep } from 'node:path';

/**
 * CEL (x-kubernetes-validations) is initialised when the first rule is compiled, not at start-up:
 * loading @bufbuild/cel builds its protobuf registry, and src/variables/cel/library.ts its function
 * library, a tenth of a one-Cluster render that has no rule at all. esbuild initialises a bundled
 * ES module when it is first `require`d, so the imports that would load CEL are bound to proxies
 * that require the real module on first call: every import of rules.ts (validate.ts's tree walk
 * stays eager: it finds whether there is a rule), and library.ts's `newCelEnv` from outside the
 * CEL modules, which becomes a handle that builds the environment for its first rule. A name the
 * proxies do not export fails the build.
 */
const celProxies = (celDir) => ({
  env: `export class LazyCelEnv {
  #make;
  #env;
  constructor(make) {
    this.#make = make;
  }
  get() {
    this.#env ??= this.#make();
    return this.#env;
  }
}
`,
  rules: `const rules = () => require(${JSON.stringify(join(celDir, 'rules.ts'))});
import { LazyCelEnv } from 'env';
export const compileRule = (env, ...args) => rules().compileRule(env instanceof LazyCelEnv ? env.get() : env, ...args);
export const evaluate = (...args) => rules().evaluate(...args);
export const ruleErrorString = (...args) => rules().ruleErrorString(...args);
export const ruleMessageOrDefault = (...args) => rules().ruleMessageOrDefault(...args);
`,
  library: `import { LazyCelEnv } from 'env';
export const newCelEnv = () => new LazyCelEnv(() => require(${JSON.stringify(join(celDir, 'library.ts'))}).newCelEnv());
`,
});

/** The esbuild plugin that binds those imports of the sources under `root` to the proxies. */
export const lazyCel = (root) => ({
  name: 'lazy-cel',
  setup(b) {
    const celDir = join(root, 'src', 'variables', 'cel');
    const proxies = celProxies(celDir);
    b.onResolve({ filter: /^env$/, namespace: 'lazy-cel' }, () => ({ path: 'env', namespace: 'lazy-cel' }));
    // Every import of rules.ts, and library.ts's from outside the CEL modules (inside, rules.ts and
    // its helpers read its name sets, and they are only loaded through the rules proxy).
    b.onResolve({ filter: /(^|\/)(rules|library)\.js$/, namespace: 'file' }, ({ path, importer }) => {
      const target = resolve(dirname(importer), path);
      if (target === join(celDir, 'rules.js')) return { path: 'rules', namespace: 'lazy-cel' };
      if (target === join(celDir, 'library.js') && !importer.startsWith(celDir + sep))
        return { path: 'library', namespace: 'lazy-cel' };
      return undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-cel' }, ({ path }) => ({
      contents: proxies[path],
      resolveDir: celDir,
      loader: 'js',
    }));
  },
});
