{{- /* after jupyterhub templates/_helpers.tpl: extraEnv as a list of EnvVar, or a map of names to values or EnvVar */}}
{{- define "jupyterhub.extraEnv" -}}
{{- $extraEnv := . }}
{{- if eq (typeOf $extraEnv) "[]interface {}" }}
{{- $extraEnv | toYaml }}
{{- else }}
{{- range $key, $value := $extraEnv }}
- name: {{ $key | quote }}
  value: {{ $value | quote }}
{{- end }}
{{- end }}
{{- end }}
