;;; eglot-settings.el --- eglot passes schemadoc's settings -*- lexical-binding: t -*-
;; SPDX-License-Identifier: Apache-2.0
;; tests/lsp/editors/eglot-settings.el - Emacs (batch) and eglot send
;; `eglot-workspace-configuration' (docs/editors.md) with
;; workspace/didChangeConfiguration: it maps $SD_FILE (outside any chart)
;; to a chart of the workspace $SD_ROOT; flymake's diagnostics go to $SD_OUT.
(require 'package)
(package-initialize)
(require 'eglot)
(require 'json)
(define-derived-mode sd-values-mode fundamental-mode "values")
(defvar sd-out (getenv "SD_OUT"))
(defun sd-say (k v)
  (with-temp-buffer
    (insert (json-encode (list (cons k v))) "\n")
    (append-to-file (point-min) (point-max) sd-out)))
(defun sd-wait (pred secs)
  (let ((end (+ (float-time) secs)))
    (while (and (not (funcall pred)) (< (float-time) end))
      (accept-process-output nil 0.05))
    (funcall pred)))
(defun sd-diags ()
  (flymake-start)
  (accept-process-output nil 0.05)
  (flymake-diagnostics))
(condition-case err
    (progn
      (find-file (getenv "SD_FILE"))
      (sd-values-mode)
      (setq-default eglot-workspace-configuration
                    '(:schemadoc (:charts (:deploy/**/*.yaml "charts/app"))))
      (let* ((root (file-name-as-directory (getenv "SD_ROOT")))
             (server (eglot--connect '(sd-values-mode) (cons 'transient root) 'eglot-lsp-server
                                     (list (getenv "SD") "lsp") "yaml")))
        (unless (sd-wait (lambda () (sd-diags)) 20) (error "no diagnostics"))
        (sd-say 'diagnostics
                (vconcat (mapcar (lambda (d)
                                   (list (cons 'lnum (1- (line-number-at-pos (flymake-diagnostic-beg d))))
                                         (cons 'message (flymake-diagnostic-text d))))
                                 (sd-diags))))
        (eglot-shutdown server)))
  (error (sd-say 'error (format "%S" err))))
(kill-emacs 0)
