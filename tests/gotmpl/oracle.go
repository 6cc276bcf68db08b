// oracle.go - runs the cases of a tests/gotmpl/*.json file with Go's own
// text/template and Sprig, to check the expected outputs written there.
// A developer's tool, not part of `make check`:
//
//	apt-get install golang-go golang-github-masterminds-sprig-dev golang-gopkg-yaml.v3-dev
//	GO111MODULE=off GOPATH=/usr/share/gocode go run tests/gotmpl/oracle.go tests/gotmpl/*.json
//
// It prints one line per case whose result differs from the file's
// "expected" (or that fails where "error" is not given, or the reverse).
// Cases marked "go": "1.22" (features newer than Debian 12's Go 1.19) or
// "oracle": false (schemadoc's documented deviations) are skipped.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/template"

	sprig "github.com/Masterminds/sprig"
	"gopkg.in/yaml.v3"
)

type tcase struct {
	Name     string          `json:"name"`
	Template string          `json:"template"`
	Data     json.RawMessage `json:"data"`
	Expected *string         `json:"expected"`
	Error    *string         `json:"error"`
	Go       string          `json:"go"`
	Oracle   *bool           `json:"oracle"`
}

// convert turns json.Number into int (whole numbers) or float64, as the
// C test driver types them.
func convert(v interface{}) interface{} {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil && !strings.ContainsAny(x.String(), ".eE") {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case []interface{}:
		for i := range x {
			x[i] = convert(x[i])
		}
		return x
	case map[string]interface{}:
		for k := range x {
			x[k] = convert(x[k])
		}
		return x
	}
	return v
}

func main() {
	bad := 0
	for _, file := range os.Args[1:] {
		raw, err := os.ReadFile(file)
		if err != nil {
			fmt.Println(err)
			os.Exit(2)
		}
		var cases []tcase
		if err := json.Unmarshal(raw, &cases); err != nil {
			fmt.Println(file, err)
			os.Exit(2)
		}
		for _, c := range cases {
			if c.Go != "" || (c.Oracle != nil && !*c.Oracle) {
				continue
			}
			var data interface{}
			if len(c.Data) > 0 {
				d := json.NewDecoder(bytes.NewReader(c.Data))
				d.UseNumber()
				if err := d.Decode(&data); err != nil {
					fmt.Println(file, c.Name, "data:", err)
					continue
				}
				data = convert(data)
			}
			f := sprig.TxtFuncMap()
			f["toYaml"] = func(v interface{}) string {
				b, err := yaml.Marshal(v)
				if err != nil {
					return ""
				}
				return strings.TrimSuffix(string(b), "\n")
			}
			f["fromYaml"] = func(s string) map[string]interface{} {
				m := map[string]interface{}{}
				if err := yaml.Unmarshal([]byte(s), &m); err != nil {
					m["Error"] = err.Error()
				}
				return m
			}
			t, err := template.New("main").Funcs(f).Parse(c.Template)
			var out bytes.Buffer
			if err == nil {
				err = t.Execute(&out, data)
			}
			switch {
			case err != nil && c.Error == nil:
				fmt.Printf("%s: %s: Go fails: %v\n", file, c.Name, err)
				bad++
			case err == nil && c.Error != nil:
				fmt.Printf("%s: %s: Go succeeds with %q\n", file, c.Name, out.String())
				bad++
			case err == nil && c.Expected != nil && out.String() != *c.Expected:
				fmt.Printf("%s: %s: Go gives %q, the file expects %q\n", file, c.Name, out.String(), *c.Expected)
				bad++
			}
		}
	}
	fmt.Printf("%d differences\n", bad)
	if bad > 0 {
		os.Exit(1)
	}
}
