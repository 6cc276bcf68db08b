;;; docs-eglot.el --- docs/editors.md's eglot config, checked  -*- lexical-binding: t -*-
;; SPDX-License-Identifier: Apache-2.0
;; tests/editors/docs-eglot.el - load the eglot config of docs/editors.md
;; (the file ED_CONFIG, cut from it by check.py snippet), visit ED_FILE in a
;; yaml-mode (one derived from fundamental-mode when none is installed) as
;; a user would, let eglot-ensure start the server, wait for the
;; diagnostics (ED_WAIT_MS), write the server's language id and the
;; flymake diagnostics as JSON to ED_OUT. For suite-lsp-editors.sh.
(require 'package)
(package-initialize)
(unless (locate-library "eglot")
  (dolist (d (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*"))
    (add-to-list 'load-path d)))
(require 'json)
(prefer-coding-system 'utf-8)           ; whatever the locale of the batch run
(unless (fboundp 'yaml-mode)
  (define-derived-mode yaml-mode fundamental-mode "YAML"))
(add-to-list 'auto-mode-alist '("\\.ya?ml\\'" . yaml-mode))
(load (getenv "ED_CONFIG"))
(require 'eglot)
(setq eglot-sync-connect t)
(let ((deadline (+ (float-time) (/ (string-to-number (or (getenv "ED_WAIT_MS") "20000")) 1000.0)))
      (published nil) out)
  (advice-add 'eglot-handle-notification :after
              (lambda (_s method &rest _)
                (when (eq method 'textDocument/publishDiagnostics) (setq published t))))
  (find-file (getenv "ED_FILE"))
  (switch-to-buffer (current-buffer))
  ;; eglot-ensure starts the server after the command that visited the file
  (run-hooks 'post-command-hook)
  (while (and (not published) (< (float-time) deadline))
    (accept-process-output nil 0.05))
  (when (bound-and-true-p flymake-mode) (flymake-start nil t))
  (setq out `((language_id . ,(let ((s (eglot-current-server))) (and s (eglot--language-id s))))
              (diagnostics . ,(vconcat
                               (mapcar (lambda (d)
                                         (let ((beg (flymake-diagnostic-beg d)))
                                           `((line . ,(1- (line-number-at-pos beg)))
                                             (col . ,(save-excursion (goto-char beg) (- beg (line-beginning-position))))
                                             (message . ,(flymake-diagnostic-text d)))))
                                       (flymake-diagnostics))))))
  (with-temp-file (getenv "ED_OUT") (insert (json-encode out)))
  (let ((s (eglot-current-server))) (when s (eglot-shutdown s)))
  (kill-emacs 0))
