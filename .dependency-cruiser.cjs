// The layers of the hexagon (README, "Architecture"), checked on every import of src/ by `npm run lint`.
// dependency-cruiser reads the TypeScript sources (tsconfig.json) without compiling them.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-only-domain',
      comment:
        'src/domain holds the rules and does no I/O: it imports nothing outside itself, not a package, not a Node builtin. ' +
        'Move the I/O to an adapter behind a port in src/domain/ports.ts.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/' },
    },
    {
      name: 'application-imports-no-adapter',
      comment:
        'src/application holds the use cases: it reaches adapters, tools, REST routes and transports through ports only, ' +
        'and never the container that wires them. Declare a port in the domain and let container.ts pass the adapter in.',
      severity: 'error',
      from: { path: '^src/application/' },
      to: {
        path: [
          '^src/(infrastructure|mcp|rest|transports)/',
          '(^|/)transports?/',
          '^src/container\\.ts$',
          '^src/index\\.ts$',
        ],
      },
    },
    {
      name: 'virtual-device-stands-alone',
      comment:
        'packages/virtual-device is a stand-in for an Android device, its own package, and shares nothing with the ' +
        'harness it is tested against (a shared module could make the double agree with the server by construction).',
      severity: 'error',
      from: { path: '^packages/virtual-device/' },
      to: { path: '^(src|test|bench|scripts)/' },
    },
    {
      name: 'harness-imports-no-virtual-device',
      comment:
        'The harness package does not carry the virtual device: src/virtualDeviceCommand.ts starts it by package name ' +
        'at run time (a checkout links the workspace). Tests, bench and scripts import it; they are not cruised here.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^packages/' },
    },
    {
      name: 'config-imports-only-domain',
      comment:
        'src/config.ts and its parts in src/config/ read the environment into plain values: within src/ they import ' +
        'only the domain and each other (packages and Node builtins are fine), so that every layer can read the ' +
        'configuration without importing another layer.',
      severity: 'error',
      from: { path: '^src/config(\\.ts$|/)' },
      to: { path: '^src/', pathNot: ['^src/domain/', '^src/config/'] },
    },
    {
      name: 'no-circular-in-domain-or-application',
      comment:
        'src/domain and src/application import each other in no loop: a type used by two files lives in the file that ' +
        'makes it (or one of its own), so each file can be read, tested and moved after what it imports. ' +
        'Move the shared type home instead of importing back.',
      severity: 'error',
      from: { path: '^src/(domain|application)/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing fails at run time; tsc sees most, this sees the dynamic ones too.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
