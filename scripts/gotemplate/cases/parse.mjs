// Parse-phase behaviour: syntax errors, undefined functions/variables, control structure checks.
const T = [
  '{{', '{{ .s', '}}', '{{ }}', '{{ end }}', '{{ else }}', '{{ if }}{{ end }}', '{{ if .t }}', '{{ if .t }}{{ else }}{{ else }}{{ end }}',
  '{{ range }}{{ end }}', '{{ with }}{{ end }}', '{{ range .ls }}{{ else if .t }}{{ end }}', '{{ with .t }}{{ else if .t }}{{ end }}',
  '{{ break }}', '{{ continue }}', '{{ if .t }}{{ break }}{{ end }}', '{{ range .ls }}{{ break 1 }}{{ end }}', '{{ range .ls }}{{ else }}{{ break }}{{ end }}',
  '{{ undefined }}', '{{ toYaml . }}', '{{ include "x" . }}', '{{ tpl "x" . }}', '{{ required "x" .a }}', '{{ lookup "v1" "Pod" "" "" }}', '{{ now }}',
  '{{ date "2006" now }}', '{{ env "HOME" }}', '{{ expandenv "$HOME" }}', '{{ uuidv4 }}', '{{ randAlphaNum 5 }}', '{{ randAlpha 3 }}', '{{ randNumeric 2 }}',
  '{{ randAscii 2 }}', '{{ randBytes 2 }}', '{{ getHostByName "x" }}', '{{ dateInZone "2006" 0 "UTC" }}', '{{ htmlDate 0 }}', '{{ date_modify "1h" 0 }}',
  '{{ $x }}', '{{ $x := 1 }}{{ $y }}', '{{ $x = 1 }}', '{{ if true }}{{ $x := 1 }}{{ end }}{{ $x }}', '{{ range $i, $e, $f := .ls }}{{ end }}',
  '{{ $a, $b := 1 }}', '{{ with $a, $b := 1 }}{{ end }}', '{{ range $a, := .ls }}{{ end }}', '{{ range $a, 1 }}{{ end }}',
  '{{ .s | 1 }}', '{{ .s | "x" }}', '{{ .s | nil }}', '{{ .s | . }}', '{{ .s | true }}', '{{ .s | }}', '{{ | .s }}', '{{ .s || .t }}',
  '{{ 1.2.3 }}', '{{ 1a }}', '{{ 0x }}', '{{ 1e }}', '{{ 08 }}', '{{ 0b2 }}', '{{ 1__0 }}', '{{ _1 }}', '{{ 1_ }}', "{{ 'ab' }}", "{{ '' }}",
  "{{ '\\q' }}", '{{ "\\q" }}', '{{ "unterminated }}', '{{ `unterminated }}', '{{ "a\nb" }}', '{{ ( .s }}', '{{ .s ) }}', '{{ (( .s ) }}', '{{ () }}',
  '{{ .s. }}', '{{ .s.1 }}', '{{ $.1 }}', '{{ "x".y }}', '{{ 1.y }}', '{{ nil.y }}', '{{ true.y }}', '{{ ..s }}', '{{ .s .t }}',
  '{{ @ }}', '{{ # }}', '{{ .s ; .t }}', '{{ .s = 1 }}', '{{ .s := 1 }}', '{{ $x : = 1 }}', '{{ $x := }}', '{{ := 1 }}',
  '{{ define }}{{ end }}', '{{ define "x" }}', '{{ define x }}{{ end }}', '{{ define "x" 1 }}{{ end }}', '{{ if .t }}{{ define "x" }}{{ end }}{{ end }}',
  '{{ template }}', '{{ template x }}', '{{ template "x" 1 2 }}', '{{ block "b" }}{{ end }}', '{{ block "b" . }}', '{{ template "x" | print }}',
  '{{/* unclosed ', '{{/* x */ .s }}', '{{ /* x */ }}', '{{/*x*/}}', '{{- /*x*/ -}}', '{{-/* x */}}', '{{ -}}', '{{ - }}', '{{-}}', '{{ .s -}', '{{ .s - }}',
  '{{else}}', '{{ end', '{{ if .t }}{{ end }}{{ end }}', '{{ with .t }}{{ end', '{{ range .ls }}{{ end }}x{{ else }}', '{{ if .t }}{{ else if }}{{ end }}',
  '{{ nil }}', '{{ . nil }}', '{{ print nil }}', '{{ and nil }}', '{{ index nil 1 }}', '{{ len nil }}', '{{ eq nil nil }}',
  '{{ .s }}{{ ', 'text {{ .s }} {{ .t }', '{{ "a" "b" }}', '{{ print "a" | len }}', '{{ 3 | len }}', '{{ true | not }}', '{{ .s | printf "%s" | len }}',
  '{{ range $x := .ls }}{{ $x }}{{ end }}{{ $x }}', '{{ with $x := .s }}{{ end }}{{ $x }}', '{{ if $x := .s }}{{ $x }}{{ else }}{{ $x }}{{ end }}',
  '{{ range .ls }}{{ continue }}{{ else }}{{ end }}', '{{ range .ls }}{{ if . }}{{ break }}{{ end }}{{ end }}', '{{ range .ls }}{{ with . }}{{ continue }}{{ end }}{{ end }}',
  '{{ define "x" }}{{ break }}{{ end }}', '{{ range .ls }}{{ define "x" }}{{ end }}{{ end }}', '{{ range .ls }}{{ block "x" . }}{{ break }}{{ end }}{{ end }}',
  '{{ else if .t }}', '{{ if .t }}{{ else if .f }}{{ else }}{{ end }}', '{{ if .t }}{{ else if .f }}{{ else if .g }}{{ end }}', '{{ else with .t }}',
  '{{ with .t }}{{ else with .f }}{{ end }}', '{{ $ := 1 }}', '{{ $ = 1 }}{{ $ }}', '{{ $x := 1 }}{{ $x.y := 2 }}',
  '{{"\\u00e9"}}', '{{ "\\U0001F600" }}', '{{ "\\ud800" }}', '{{ "\\400" }}', '{{ "\\1" }}', "{{ '\\'' }}", "{{ '\"' }}", '{{ "\\\'" }}',
];

export function cases() {
  return T.map((template, i) => ({ id: `p${i}`, template, data: { s: 'hello', t: true, ls: ['a', 'b'] } }));
}
