// gotmpl-oracle: Go text/template + sprig, configured the way Cluster API renders ClusterClass
// inline-patch templates, as a test-time oracle for render-clusterclass's template engine
// (src/gotemplate). Build it with `npm run oracle:gotmpl` (scripts/oracle/build-gotmpl.mjs): that
// uses the Go toolchain named in go.mod and the module versions pinned in go.mod/go.sum.
//
// Protocol: JSON Lines on stdin, one request per line:
//
//	{"id": <any JSON>, "template": "<text>", "data": <JSON value>}
//
// and one JSON line on stdout per request, in the same order (flushed per line):
//
//	{"id": ..., "output": "<rendered text>"}                       (plus "invalid_utf8": true if it is not UTF-8)
//	{"id": ..., "error": "<message>", "phase": "parse" | "exec" | "input"}
//
// It follows Cluster API's internal/controllers/topology/cluster/patches/inline/
// json_patch_generator.go, renderValueTemplate and calculateTemplateData:
//   - template.New("tpl").Funcs(sprig.HermeticTxtFuncMap()).Parse(text), no Option (missingkey=default);
//   - the variables reach the template through encoding/json: objects are map[string]interface{},
//     arrays []interface{}, every number float64;
//   - a failed Execute discards the partial output.
//
// Additions that CAPI never exercises: absent or null "data" is an empty map and a non-object
// "data" is passed as decoded (ported text/template tests use it); time.Local is UTC (as in CAPI's
// controller image) so that date functions are reproducible; a panic is reported as an exec error.
//
// -version prints, as JSON, the Go version, its Unicode version and every linked module version.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"text/template"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/Masterminds/sprig/v3"
)

type request struct {
	ID       json.RawMessage `json:"id"`
	Template *string         `json:"template"`
	Data     json.RawMessage `json:"data"`
}

type response struct {
	ID          json.RawMessage `json:"id"`
	Output      *string         `json:"output,omitempty"`
	Error       string          `json:"error,omitempty"`
	Phase       string          `json:"phase,omitempty"`
	InvalidUTF8 bool            `json:"invalid_utf8,omitempty"`
}

// decodeData mirrors calculateTemplateData: json.Unmarshal into map[string]interface{}.
func decodeData(raw json.RawMessage) (interface{}, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return map[string]interface{}{}, nil
	}
	if trimmed[0] == '{' {
		res := map[string]interface{}{}
		err := json.Unmarshal(trimmed, &res)
		return res, err
	}
	var v interface{}
	err := json.Unmarshal(trimmed, &v)
	return v, err
}

func render(req *request, funcs template.FuncMap) (resp response) {
	resp.ID = req.ID
	defer func() {
		if r := recover(); r != nil {
			resp = response{ID: req.ID, Error: fmt.Sprintf("panic: %v", r), Phase: "exec"}
		}
	}()
	if req.Template == nil {
		resp.Error, resp.Phase = `request has no "template" string`, "input"
		return
	}
	data, err := decodeData(req.Data)
	if err != nil {
		resp.Error, resp.Phase = "failed to decode data: "+err.Error(), "input"
		return
	}
	tpl, err := template.New("tpl").Funcs(funcs).Parse(*req.Template)
	if err != nil {
		resp.Error, resp.Phase = err.Error(), "parse"
		return
	}
	var buf bytes.Buffer
	if err := tpl.Execute(&buf, data); err != nil {
		resp.Error, resp.Phase = err.Error(), "exec"
		return
	}
	out := buf.String()
	resp.InvalidUTF8 = !utf8.ValidString(out)
	resp.Output = &out
	return
}

// versions: what this binary was built from, for the goldens to record and the tests to compare.
func versions() map[string]interface{} {
	modules := map[string]string{}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			modules[dep.Path] = dep.Version
		}
	}
	return map[string]interface{}{"go": runtime.Version(), "unicode": unicode.Version, "modules": modules}
}

func main() {
	showVersion := flag.Bool("version", false, "print the Go, Unicode and module versions as JSON and exit")
	flag.Parse()
	if *showVersion {
		out, _ := json.Marshal(versions())
		fmt.Println(string(out))
		return
	}
	time.Local = time.UTC

	funcs := sprig.HermeticTxtFuncMap()
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, readErr := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var req request
			resp := response{ID: json.RawMessage("null")}
			if err := json.Unmarshal(line, &req); err != nil {
				resp.Error, resp.Phase = "bad request line: "+err.Error(), "input"
			} else {
				resp = render(&req, funcs)
			}
			if len(resp.ID) == 0 {
				resp.ID = json.RawMessage("null")
			}
			if err := enc.Encode(&resp); err != nil || out.Flush() != nil {
				fmt.Fprintln(os.Stderr, "gotmpl-oracle: cannot write the answer")
				os.Exit(2)
			}
		}
		if readErr == io.EOF {
			return
		}
		if readErr != nil {
			fmt.Fprintln(os.Stderr, "gotmpl-oracle: read:", readErr)
			os.Exit(2)
		}
	}
}
