// Go's printing of float64 values and fmt verbs applied to every kind of value the data model has.
import { dataFor } from './_data.mjs';

const FLOATS = [0, 1, -1, 0.5, 0.1, 1 / 3, 2 / 3, 100000, 999999, 1e6, 1234567, 12345678, 123456789, 1e20, 1e21, 1e22, 1e-4, 1e-5,
  0.000123, 123.456, -2.5e-10, 1.7976931348623157e308, 5e-324, 2.5, 3.0, 100, 1.5e300, 123456.7, 0.1 + 0.2, 1e15, 1e16, 4294967296,
  9007199254740993, -0.000001, 0.25, 0.125, 1.005, 2.675, 1.45, 0.05, 1e-7, 65536.5];

const VERBS = ['%v', '%d', '%s', '%q', '%x', '%X', '%o', '%O', '%b', '%e', '%E', '%f', '%F', '%g', '%G', '%t', '%c', '%U', '%T', '%5d|',
  '%-5d|', '%05d', '%+d', '% d', '%.2f', '%8.3f|', '%-8.3f|', '% x', '%#x', '%#o', '%#v', '%+v', '%.3s', '%10s|', '%-10s|', '%010.3f',
  '%+.1e', '%.0f', '%3c|', '%08b', '%.2g', '%#g', '%6.2v|', '%x|', '%.1q', '%+q', '%#q', '%5t|', '%-08d|', '%#U', '%.3d', '%.0d', '%5.1f|'];

const ARGS = ['.n', '.f', '.s', '.t', '.nil', '.l', '.m', '.ls', '.em', '3', '-3', '3.5', '"str"', 'true', '.missing', "'a'", '(len .ls)',
  '1e6', '0x1F', '.uni', '.big', '.neg', '(int64 42)', '(semver "1.2.3")', 'nil'];

export function cases() {
  const out = [];
  FLOATS.forEach((v, i) => {
    out.push({ id: `float${i}`, template: '{{ .v }}|{{ print .v }}|{{ printf "%v|%g|%e|%f|%.3g|%G|%.10g" .v .v .v .v .v .v .v }}', data: { v } });
    out.push({ id: `floatneg${i}`, template: '{{ .v }}|{{ printf "%+v|%8.2f|%-10.4e|" .v .v .v }}', data: { v: -v } });
    out.push({ id: `floatjson${i}`, template: '{{ toJson .v }}|{{ toString .v }}|{{ .l }}|{{ .m }}', data: { v, l: [v, -v], m: { k: v } } });
  });
  for (const verb of VERBS) {
    for (const arg of ARGS) {
      out.push({ id: `${verb}:${arg}`, template: `{{ printf ${JSON.stringify(verb)} ${arg} }}`, data: dataFor(arg) });
    }
  }
  return out;
}
