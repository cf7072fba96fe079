// Go-runtime corners a ClusterClass template can reach: `js` on runes unicode.IsPrint rejects,
// `urlParse` where net/url.Parse fails, and `semverCompare` on versions with build metadata
// (RKE2 `+rke2r1`, K3s `+k3s1`). Runes new in Unicode 14-17 (U+FDFF, U+1FAE8, U+2FFC, U+1C89)
// are escaped as Go's unicode tables say, not as Node's (src/gotemplate/unicode-print.ts).

const js = [
  '\u00a0', '\u00ad', '\u034f', '\u061c', '\u0378', '\u0600', '\u115f', '\u1680', '\u180e', '\u200b', '\u200d', '\u2028', '\u2029', '\u202e', '\u2060',
  '\u2066', '\u3000', '\ufdff', '\u{1fae8}', '\u2ffc', '\u1c89', '\u0cf3', '\u{11f00}', '\ufdd0', '\ufeff', '\ufff9', '\ufffd', '\ufffe', '\uffff', '\u{1d173}', '\u{e0001}', '\u{e0100}', '\u{f0000}', '\u{10fffd}', '\u{10ffff}',
  '\u{1f600}', '\u{2fa1d}', '\u{2fa1e}', 'é\u0301', 'a\u0000b', '\u007f\u0080\u009f', '<\u00a0>', 'x\u{1b4f0}',
].map((s) => ({ template: '{{ js .s }}', data: { s } }));

const urls = [
  'http://[::1', 'http://[::1]:80', 'http://[::1]:8a/', 'http://[fe80::1%25en0]/', 'http://[fe80::1%en0]/', 'http://[fe80::1%25%41]/', 'http://h:port/',
  'http://h:80:80/', 'http://a b/', 'http://%41/', 'http://%C3%A9/', 'http://h/%zz', 'http://h/p#%zz', 'http://h/p%2', 'http://h/%2F%20?x=%zz#f%20',
  ':no-scheme', '1http://x', 'a:b:c', 'x:y/z', './a:b', 'a/b:c', '*', '', '//host/path', '///triple', 'http:///p', 'http:opaque?q#f', 'mailto:a@b.c',
  'http://u@h/', 'http://u:p@h/', 'http://u%40x:p%3A@h/', 'http://u p@h/', 'http://user:p%zz@h/', 'http://[::1]/%25', 'HTTP://Example.COM/A',
  'http://h/a\tb', 'http://h/\u007f', 'http://h:/p', 'http://h?x', 'http://h/?', 'https://é.example/ü?ä#ö',
].map((u) => ({ template: '{{ urlParse .u }}', data: { u } }));

const versions = ['v1.36.0+rke2r1', 'v1.36.0+rke2r2', 'v1.35.3+rke2r1', 'v1.31.8+k3s1', 'v1.37.0-rc.1+rke2r1', '1.36.0+rke2r1', 'v1.36.0+build.5'];
const constraints = ['>= 1.36.0', '>=1.36.0-0', '< 1.36.0', '= 1.36.0', '1.36.0+rke2r1', '!=1.36.0', '~1.36', '^1.35', '>1.35.3', '1.36.x', '>= 1.34 < 1.37', '>=1.36.0+rke2r2'];
const semver = [
  ...versions.flatMap((v) => constraints.map((c) => ({ template: '{{ semverCompare .c .v }}', data: { c, v } }))),
  ...versions.map((v) => ({ template: '{{ $s := semver .v }}{{ $s.Major }}.{{ $s.Minor }}.{{ $s.Patch }} pre={{ $s.Prerelease }} meta={{ $s.Metadata }} {{ $s }}', data: { v } })),
  { template: '{{ (semver "v1.36.0+rke2r1").Compare (semver "v1.36.0+rke2r2") }}', data: {} },
  { template: '{{ (semver "v1.36.0+rke2r1").Equal (semver "v1.36.0") }}', data: {} },
];

export function cases() {
  return [
    ...js.map((c, i) => ({ id: `js${i}`, ...c })),
    ...urls.map((c, i) => ({ id: `urlParse${i}`, ...c })),
    ...semver.map((c, i) => ({ id: `semver${i}`, ...c })),
  ];
}
