{{- /* after bjw-s common library: lib/controller, lib/pod and lib/container,
       reduced to the values paths they hand whole; the library merges
       defaultPodOptions into each controller's pod options */}}
{{- define "bjw-s.common.render.controllers" -}}
{{- range $identifier, $controller := .Values.controllers }}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $identifier }}
spec:
  template:
    spec:
      {{- with (default $.Values.defaultPodOptions.affinity $controller.pod.affinity) }}
      affinity: {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with (default $.Values.defaultPodOptions.tolerations $controller.pod.tolerations) }}
      tolerations: {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with (default $.Values.defaultPodOptions.securityContext $controller.pod.securityContext) }}
      securityContext: {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with (default $.Values.defaultPodOptions.topologySpreadConstraints $controller.pod.topologySpreadConstraints) }}
      topologySpreadConstraints: {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with (default $.Values.defaultPodOptions.imagePullSecrets $controller.pod.imagePullSecrets) }}
      imagePullSecrets: {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with (default $.Values.defaultPodOptions.nodeSelector $controller.pod.nodeSelector) }}
      nodeSelector: {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $controller.initContainers }}
      initContainers:
        {{- range $name, $container := . }}
        - name: {{ $name }}
          {{- include "bjw-s.common.lib.container.fields" $container | nindent 10 }}
        {{- end }}
      {{- end }}
      containers:
        {{- range $name, $container := $controller.containers }}
        - name: {{ $name }}
          image: {{ printf "%s:%s" $container.image.repository $container.image.tag }}
          {{- include "bjw-s.common.lib.container.fields" $container | nindent 10 }}
        {{- end }}
{{- end }}
{{- end -}}

{{- define "bjw-s.common.lib.container.fields" -}}
{{- with .env }}
env: {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .envFrom }}
envFrom: {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .resources }}
resources: {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .securityContext }}
securityContext: {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .lifecycle }}
lifecycle: {{- toYaml . | nindent 2 }}
{{- end }}
{{- if .probes.liveness.custom }}
livenessProbe: {{- toYaml .probes.liveness.spec | nindent 2 }}
{{- end }}
{{- if .probes.readiness.custom }}
readinessProbe: {{- toYaml .probes.readiness.spec | nindent 2 }}
{{- end }}
{{- if .probes.startup.custom }}
startupProbe: {{- toYaml .probes.startup.spec | nindent 2 }}
{{- end }}
{{- end -}}
