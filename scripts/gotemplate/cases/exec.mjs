// Template-language behaviour, inspired by the kinds of checks in Go's text/template exec tests
// (written independently for this project).
import { D } from './_data.mjs';

const T = [
  // text, fields, missing keys
  'plain text', '', '{{ "" }}', '{{.}}', '{{ .s }}', '{{ .missing }}', '{{ .missing.deeper }}', '{{ .m.d.e }}', '{{ .m.d }}',
  '{{ .m }}', '{{ .l }}', '{{ .el }}', '{{ .em }}', '{{ .nil }}', '{{ .nil.x }}', '{{ .s.x }}', '{{ .n.x }}', '{{ .l.x }}',
  '{{ .m.missing }}', '{{ .m.c }}', '{{ .builtin.cluster.name }}-cp', '{{ .builtin.controlPlane.replicas }}',
  '{{ .t }} {{ .fl }}', '{{ .n }} {{ .f }} {{ .z }} {{ .neg }} {{ .big }} {{ .huge }}', '{{ .k8s }}',
  '{{ index . "k8s" "http-proxy" }}', '{{ index .k8s "missing" }}', '{{ index .m "d" "e" }}', '{{ index .l 1 }}',
  '{{ index .l 3 }}', '{{ index .l 5 }}', '{{ index .l -1 }}', '{{ index .l .n }}', '{{ index .s 0 }}', '{{ index .s 1 2 }}',
  '{{ index .m 1 }}', '{{ index .missing 1 }}', '{{ index .nil "a" }}', '{{ index .l }}', '{{ index 3 1 }}', '{{ index .ls 0 }}',
  // variables and scope
  '{{ $x := .s }}{{ $x }}', '{{ $x := 1 }}{{ $x = 2 }}{{ $x }}', '{{ $ }}', '{{ $.s }}', '{{ with .m }}{{ $.s }}{{ .b }}{{ end }}',
  '{{ $x := .m }}{{ $x.d.e }}', '{{ $x := .nil }}{{ $x.y }}', '{{ $x := .missing }}{{ $x.y }}', '{{ $x := 1 }}{{ if true }}{{ $x = 2 }}{{ end }}{{ $x }}',
  '{{ $x := 1 }}{{ if true }}{{ $x := 2 }}{{ $x }}{{ end }}{{ $x }}', '{{ range $i, $e := .ls }}{{ $i }}:{{ $e }} {{ end }}',
  '{{ range $e := .ls }}{{ $e }}{{ end }}', '{{ range .ls }}[{{ . }}]{{ end }}', '{{ range $k, $v := .m }}{{ $k }}={{ $v }};{{ end }}',
  '{{ range .m }}{{ . }},{{ end }}', '{{ range .el }}x{{ else }}empty{{ end }}', '{{ range .em }}x{{ else }}empty{{ end }}',
  '{{ range .missing }}x{{ else }}none{{ end }}', '{{ range .nil }}x{{ else }}nil{{ end }}', '{{ range .s }}x{{ end }}', '{{ range .n }}x{{ end }}',
  '{{ range .l }}{{ . }}|{{ end }}', '{{ range .l }}{{ if . }}{{ . }}{{ else }}-{{ end }}{{ end }}',
  '{{ range $i, $e := .ln }}{{ if eq $i 1 }}{{ continue }}{{ end }}{{ $e }}{{ end }}', '{{ range .ln }}{{ if eq . 1.0 }}{{ break }}{{ end }}{{ . }}{{ end }}',
  '{{ range .ls }}{{ range $.ln }}{{ . }}{{ end }};{{ end }}', '{{ range $i, $x := .ls }}{{ $i }}{{ end }}{{ $i }}',
  '{{ range .l }}{{ .x }}{{ end }}', '{{ range 3 }}x{{ end }}', '{{ range $i := .ls }}{{ $i }}{{ end }}',
  // if / else if / with
  '{{ if .t }}yes{{ end }}', '{{ if .fl }}yes{{ else }}no{{ end }}', '{{ if .missing }}a{{ else if .s }}b{{ else }}c{{ end }}',
  '{{ if .z }}a{{ else if .e }}b{{ else if .el }}c{{ else if .em }}d{{ else }}e{{ end }}', '{{ if .nil }}a{{ else }}b{{ end }}',
  '{{ if .f }}f{{ end }}{{ if .neg }}n{{ end }}{{ if .ls }}l{{ end }}{{ if .m }}m{{ end }}', '{{ if "" }}a{{ else }}b{{ end }}', '{{ if 0 }}a{{ else }}b{{ end }}',
  '{{ if 0.0 }}a{{ else }}b{{ end }}', '{{ if nil }}a{{ end }}', '{{ with .m.d }}{{ .e }}{{ end }}', '{{ with .missing }}a{{ else }}b{{ end }}',
  '{{ with $x := .s }}{{ $x }}{{ . }}{{ end }}', '{{ with .e }}a{{ else }}{{ . }}b{{ end }}', '{{ with .ls }}{{ len . }}{{ end }}',
  '{{ if and .t .s }}both{{ end }}', '{{ if or .fl .e .z }}any{{ else }}none{{ end }}', '{{ and 1 0 2 }}', '{{ or 0 "" "x" }}', '{{ and }}',
  '{{ or .missing .s }}', '{{ and .s .missing }}', '{{ not .t }} {{ not .e }} {{ not .missing }}', '{{ not 1 2 }}', '{{ and .t (not .fl) }}',
  '{{ or 0 "" }}', '{{ and 1 "a" }}', '{{ or .nil .missing }}', '{{ and .t .nil }}',
  // pipelines, parentheses, chaining
  '{{ .s | printf "%s!" }}', '{{ "x" | printf "%s-%s" "y" }}', '{{ .s | len }}', '{{ (index .m "d").e }}', '{{ (.m).b }}', '{{ (.missing).x }}',
  '{{ (index .l 0) }}', '{{ .s | print }}', '{{ 3 | printf "%d" }}', '{{ .ls | len | printf "%03d" }}', '{{ print (len .ls) (len .m) }}',
  '{{ ("abc") }}', '{{ (1) }}', '{{ (true) }}', '{{ (.n) }}', '{{ $x := (len .s) }}{{ $x }}', '{{ . | printf "%v" }}',
  '{{ .s | eq "hello" }}', '{{ 1 | eq 1 }}', '{{ .m.d | len }}',
  // literals
  '{{ 1 }} {{ -1 }} {{ +1 }} {{ 1.5 }} {{ -1.5 }} {{ 1e3 }} {{ 1E3 }} {{ 1.0 }}', '{{ 0x1F }} {{ 0X1f }} {{ 0o17 }} {{ 017 }} {{ 0b101 }} {{ 1_000 }}',
  "{{ 'a' }} {{ '\\n' }} {{ '\\x41' }} {{ '\\u263a' }} {{ 'é' }}", '{{ "a\\tb" }} {{ `raw\\n` }} {{ "\\u00e9" }} {{ "\\x41\\101" }}',
  '{{ true }} {{ false }}', '{{ nil }}', '{{ 0x1p-2 }}', '{{ 1i }}', '{{ 1+2i }}', '{{ 0i }}', '{{ 9223372036854775807 }}', '{{ 9223372036854775808 }}',
  '{{ 18446744073709551615 }}', '{{ -9223372036854775808 }}', '{{ 1e100 }}', '{{ .5 }}', '{{ 5. }}', '{{ 0.1 }}', '{{ 00 }}', '{{ -0 }}',
  '{{ printf "%T" 1 }} {{ printf "%T" 1.0 }} {{ printf "%T" 1e2 }} {{ printf "%T" 0x10 }} {{ printf "%T" \'a\' }} {{ printf "%T" "s" }} {{ printf "%T" true }}',
  '{{ printf "%T %T %T %T %T %T" .n .s .t .l .m .nil }}', '{{ printf "%T" .missing }}', '{{ printf "%T" 1i }}',
  // whitespace trimming and comments
  'a  {{- .s -}}  b', 'a\n\t{{- .s }}\n', '{{ .s -}}\n\n  x', '{{- /* comment */ -}} x', 'a {{/* c */}} b', 'a {{- /* c */}} b', 'a {{/* c */ -}} b',
  '{{/* multi\nline */}}ok', '{{ -3 }}', '{{- 3 -}}', 'x{{- "" -}}y', '  {{- if .t }} yes {{- end }}  ', '{{ if .t -}}\n  a\n{{- end }}',
  '{{- range .ls }}\n- {{ . }}\n{{- end }}', '{{\n.s\n}}', '{{ .s\n}}',
  // define / template / block
  '{{ define "x" }}X{{ . }}{{ end }}{{ template "x" .s }}', '{{ define "x" }}X{{ end }}{{ template "x" }}', '{{ template "nope" }}',
  '{{ define "x" }}{{ .a }}{{ end }}{{ template "x" .m }}', '{{ block "b" .s }}[{{ . }}]{{ end }}', '{{ define "b" }}D{{ end }}{{ block "b" . }}B{{ end }}',
  '{{ define "tpl" }}only define{{ end }}', '{{ define "tpl" }}x{{ end }}body', '{{ define "r" }}{{ if . }}{{ len . }}{{ template "r" (slice . 1) }}{{ end }}{{ end }}{{ template "r" .ls }}',
  '{{ define "a" }}A{{ end }}{{ define "a" }}B{{ end }}', '{{ define "a" }}{{ end }}{{ define "a" }}B{{ end }}{{ template "a" }}',
  '{{ define "x" }}{{ $ }}{{ end }}{{ template "x" 42 }}', '{{ define "x" }}{{ $.s }}{{ end }}{{ template "x" }}', '{{ template "x" }}{{ define "x" }}late{{ end }}',
  '{{ define "v" }}{{ $y }}{{ end }}', '{{ $x := 1 }}{{ define "v" }}{{ $x }}{{ end }}',
  // builtins
  '{{ len .s }} {{ len .ls }} {{ len .m }} {{ len .el }} {{ len .uni }}', '{{ len .n }}', '{{ len .missing }}', '{{ len .nil }}', '{{ len 3 }}', '{{ len "" }}',
  '{{ slice .ls 1 }} {{ slice .ls 1 2 }} {{ slice .ls }} {{ slice .s 1 3 }}', '{{ slice .ls 2 1 }}', '{{ slice .ls 0 9 }}', '{{ slice .n 1 }}',
  '{{ print }}', '{{ print 1 2 }}', '{{ print "a" "b" }}', '{{ print 1 "a" 2 }}', '{{ print .nil .missing }}', '{{ print .l .m }}',
  '{{ println 1 "a" }}', '{{ println }}', '{{ printf "%d %s" 1 }}', '{{ printf "%d" 1 2 }}', '{{ printf "%" }}', '{{ printf "%!" }}', '{{ printf "%z" 1 }}',
  '{{ printf "%[2]d %[1]d" 1 2 }}', '{{ printf "%[3]d" 1 }}', '{{ printf "%*d|" 5 1 }}', '{{ printf "%.*f" 2 3.14159 }}', '{{ printf "%*d" 1.5 1 }}',
  '{{ printf "%-*d|" 4 7 }}', '{{ printf "%%" }}', '{{ printf "100%%" }}', '{{ printf "%d%%" 5 }}', '{{ printf }}', '{{ printf 3 }}', '{{ printf .s }}',
  '{{ html "<a href=\'x\'>&\\"</a>" }}', '{{ html .m }}', '{{ html .missing }}', '{{ html 1 2 }}', '{{ js "it\'s <b>\\"x\\"</b> & = \\\\ é" }}', '{{ js "\\x01\\n" }}',
  '{{ urlquery "a b&c=d/é?" }}', '{{ urlquery .missing }}', '{{ urlquery 1 "a" }}', '{{ call .s }}', '{{ call .missing }}',
  '{{ .s 1 }}', '{{ .m.a 1 }}', '{{ "x" 1 }}', '{{ 1 2 }}', '{{ nil 1 }}', '{{ $ 1 }}', '{{ (1) 2 }}', '{{ .s | .m }}', '{{ .s | "x" }}',
  // errors at execution
  '{{ index .s 10 }}', '{{ index .ls "a" }}', '{{ index .ls 1.0 }}', '{{ template "tpl" }}', '{{ .s.a.b }}',
];

export function cases() {
  const out = T.map((template, i) => ({ id: `t${i}`, template, data: D }));
  out.push({ id: 'nil-data', template: '{{ . }}|{{ .a }}', data: null });
  out.push({ id: 'list-data', template: '{{ . }}|{{ index . 0 }}|{{ len . }}', data: [1, 'a'] });
  out.push({ id: 'string-data', template: '{{ . }}|{{ len . }}', data: 'str' });
  out.push({ id: 'num-data', template: '{{ . }}', data: 7 });
  out.push({ id: 'string-data-field', template: '{{ .x }}', data: 'str' });
  return out;
}
