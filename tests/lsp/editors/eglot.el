;;; eglot.el --- Emacs with eglot as the client of `schemadoc lsp' -*- lexical-binding: t -*-
;; SPDX-License-Identifier: Apache-2.0
;; tests/lsp/editors/eglot.el - Emacs (batch) and eglot open $SD_FILE, wait
;; for the diagnostics (flymake), hover a key, apply the quick fix, accept a
;; completion; what the buffer and flymake hold goes to $SD_OUT as JSON lines.
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
      (let* ((dir (file-name-directory (getenv "SD_FILE")))
             (server (eglot--connect '(sd-values-mode) (cons 'transient dir) 'eglot-lsp-server
                                     (list (getenv "SD") "lsp" "--stdio") "yaml")))
        (unless (sd-wait (lambda () (sd-diags)) 20) (error "no diagnostics"))
        (sd-say 'diagnostics
                (vconcat (mapcar (lambda (d)
                                   (list (cons 'lnum (1- (line-number-at-pos (flymake-diagnostic-beg d))))
                                         (cons 'message (flymake-diagnostic-text d))))
                                 (sd-diags))))
        (goto-char (point-min))
        (forward-char 1)
        (let ((h (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams))))
          (sd-say 'hover (plist-get (plist-get h :contents) :value)))
        ;; the quick fix: the server's actions for line 2, the first applied
        (goto-char (point-min))
        (forward-line 1)
        (let* ((beg (point)) (end (line-end-position))
               (actions (jsonrpc-request server :textDocument/codeAction
                                         (list :textDocument (eglot--TextDocumentIdentifier)
                                               :range (list :start (eglot--pos-to-lsp-position beg)
                                                            :end (eglot--pos-to-lsp-position end))
                                               :context (list :diagnostics []))))
               (a (aref actions 0)))
          (sd-say 'action (plist-get a :title))
          (eglot--apply-workspace-edit (plist-get a :edit)))
        (eglot--signal-textDocument/didChange)
        (unless (sd-wait (lambda () (null (sd-diags))) 20) (error "the quick fix left the unknown key"))
        (sd-say 'fixed (length (sd-diags)))
        ;; a completion on a new last line, its first item accepted
        (goto-char (point-max))
        (unless (bolp) (insert "\n"))
        (let* ((c (jsonrpc-request server :textDocument/completion (eglot--TextDocumentPositionParams)))
               (items (if (vectorp c) c (plist-get c :items))))
          (sd-say 'completions (length items))
          (insert (plist-get (aref items 0) :insertText) "1"))
        (sd-say 'buffer (vconcat (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n" t)))
        (eglot-shutdown server)))
  (error (sd-say 'error (format "%S" err))))
(kill-emacs 0)
