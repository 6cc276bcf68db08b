;;; eglot-session.el --- one editing session in Emacs + eglot  -*- lexical-binding: t -*-
;; SPDX-License-Identifier: Apache-2.0
;; tests/editors/eglot-session.el - one editing session in batch Emacs (28)
;; with eglot (1.9, Debian elpa-eglot) against `schemadoc lsp`, for
;; tests/suite-lsp-editors.sh. Run as
;;   emacs --batch -Q -l tests/editors/eglot-session.el
;; with the same environment as nvim-session.lua (SD_LSP_CMD, ED_FILE,
;; ED_OUT, ED_HOVER, ED_COMPLETE, ED_LABEL, ED_SPOILED as 0-based
;; positions, ED_WAIT_MS). No yaml-mode is assumed: the values file is
;; visited in a mode derived from fundamental-mode that eglot-server-programs
;; maps to the server with language id "yaml".
;; Steps, each waiting on the server's answer (never a fixed sleep): connect,
;; wait for diagnostics and read them through flymake (flymake-diagnostics),
;; hover (jsonrpc-request, rendered by eglot), complete through eglot's own
;; completion-at-point function and its exit function (which applies the
;; item's textEdit), ask the quick fixes for the spoiled key's flymake
;; diagnostic (eglot-code-actions) and let eglot apply the chosen one, wait
;; for the diagnostics of the edited text, then write the buffer text and the
;; flymake diagnostics as JSON and exit. A failing hover, completion or
;; quick fix is recorded in "errors" and the next steps still run; the
;; status is 1 when anything failed.

(require 'package)
(package-initialize)
(unless (require 'eglot nil t)
  ;; Debian's elpa packages, when package.el did not find them
  (dolist (d (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*"))
    (add-to-list 'load-path d))
  (require 'eglot))
(require 'json)
(prefer-coding-system 'utf-8)           ; whatever the locale of the batch run
(require 'flymake)
(require 'cl-lib)

(define-derived-mode schemadoc-values-mode fundamental-mode "values"
  "Values files of a Helm chart, checked by `schemadoc lsp'.")

(defvar ed-out (list (cons 'errors nil)))
(defvar ed-steps nil)
(defvar ed-published 0)
(defvar ed-wait-s (/ (string-to-number (or (getenv "ED_WAIT_MS") "20000")) 1000.0))

(defun ed-put (key value) (push (cons key value) ed-out))

(defun ed-pos (name)
  (let ((v (or (getenv name) "")))
    (unless (string-match "\\`\\([0-9]+\\):\\([0-9]+\\)\\'" v)
      (error "%s must be LINE:COL" name))
    (cons (string-to-number (match-string 1 v)) (string-to-number (match-string 2 v)))))

(defun ed-goto (line col)
  "Go to 0-based LINE and COL (code points)."
  (goto-char (point-min))
  (forward-line line)
  (forward-char col))

(advice-add 'eglot-handle-notification :after
            (lambda (_server method &rest _)
              (when (eq method 'textDocument/publishDiagnostics)
                (setq ed-published (1+ ed-published)))))

(defun ed-wait (what pred)
  "Wait for PRED, reading the server's output, for at most `ed-wait-s'."
  (let ((deadline (+ (float-time) ed-wait-s))
        (server (ignore-errors (eglot-current-server))))
    (while (and (not (funcall pred)) (< (float-time) deadline)
                (or (null server) (jsonrpc-running-p server)))
      (accept-process-output nil 0.05))
    (unless (funcall pred)
      (if (and server (not (jsonrpc-running-p server)))
          (error "%s: the server exited" what)
        (error "%s: no answer within %s s" what ed-wait-s)))
    (push what ed-steps)))

(defmacro ed-step (name &rest body)
  "Run BODY; an error in it is recorded under NAME and does not stop the session."
  (declare (indent 1))
  `(condition-case err (progn ,@body)
     (error (push (format "%s: %s" ,name (error-message-string err)) (cdr (assq 'errors ed-out))))))

(defun ed-flush ()
  "Send the pending didChange now, as eglot does when idle."
  (eglot--signal-textDocument/didChange))

(defun ed-diagnostics ()
  "The buffer's flymake diagnostics, after flymake has asked eglot again."
  (flymake-start nil t)
  (let (r)
    (dolist (d (flymake-diagnostics))
      (let* ((beg (flymake-diagnostic-beg d)) (end (flymake-diagnostic-end d))
             (lsp (cdr (assoc 'eglot-lsp-diag (eglot--diag-data d)))))
        (save-excursion
          (push `((line . ,(1- (line-number-at-pos beg)))
                  (col . ,(progn (goto-char beg) (- beg (line-beginning-position))))
                  (end_line . ,(1- (line-number-at-pos end)))
                  (end_col . ,(progn (goto-char end) (- end (line-beginning-position))))
                  (type . ,(symbol-name (flymake-diagnostic-type d)))
                  (text . ,(flymake-diagnostic-text d))
                  (message . ,(plist-get lsp :message))
                  (code . ,(plist-get lsp :code)))
                r))))
    (vconcat (sort r (lambda (a b) (or (< (alist-get 'line a) (alist-get 'line b))
                                       (and (= (alist-get 'line a) (alist-get 'line b))
                                            (< (alist-get 'col a) (alist-get 'col b)))))))))

(defun ed-run ()
  (let* ((cmd (split-string (or (getenv "SD_LSP_CMD") "") " " t))
         (file (getenv "ED_FILE")))
    (setq eglot-server-programs `(((schemadoc-values-mode :language-id "yaml") . ,cmd))
          eglot-sync-connect t
          eglot-connect-timeout (max 1 (truncate ed-wait-s)))
    (find-file file)
    (schemadoc-values-mode)
    (switch-to-buffer (current-buffer))
    (apply #'eglot (eglot--guess-contact))
    (ed-wait "initialize" (lambda () (eglot-current-server)))
    (let ((server (eglot-current-server)) (before 0))
      (ed-wait "diagnostics" (lambda () (> ed-published 0)))
      (ed-put 'diagnostics (ed-diagnostics))

      ;; hover, rendered as eglot renders it for eldoc
      (ed-step "hover"
        (let ((p (ed-pos "ED_HOVER")))
          (ed-goto (car p) (cdr p)))
        (let ((h (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams))))
          (push "textDocument/hover" ed-steps)
          (ed-put 'hover (and h (plist-get h :contents)
                              (substring-no-properties
                               (eglot--hover-info (plist-get h :contents) (plist-get h :range)))))))

      ;; completion: eglot's capf, the item inserted, then its exit function
      (ed-step "completion"
        (let ((p (ed-pos "ED_COMPLETE")))
          (ed-goto (car p) (cdr p)))
        (let* ((capf (or (eglot-completion-at-point)
                         (error "eglot offers none here (does the server announce completionProvider?)")))
               (beg (nth 0 capf)) (end (nth 1 capf)) (table (nth 2 capf))
               (exit-fn (plist-get (nthcdr 3 capf) :exit-function))
               (cands (all-completions (buffer-substring-no-properties beg end) table))
               (label (getenv "ED_LABEL"))
               (chosen (cl-find-if (lambda (c) (equal (plist-get (get-text-property 0 'eglot--lsp-item c) :label)
                                                       label))
                                   cands)))
          (push "textDocument/completion" ed-steps)
          (ed-put 'completion_labels
                  (vconcat (mapcar (lambda (c) (plist-get (get-text-property 0 'eglot--lsp-item c) :label)) cands)))
          (unless chosen (error "no item labelled %s" label))
          (setq before ed-published)
          (delete-region beg end)
          (goto-char beg)
          (insert (substring-no-properties chosen))
          (when exit-fn (funcall exit-fn chosen 'finished))
          (ed-put 'completion_applied label)
          (ed-flush)
          (ed-wait "diagnostics after the completion" (lambda () (> ed-published before)))
          (flymake-start nil t)))

      ;; the quick fix for the unknown key, as M-x eglot-code-actions applies it
      (ed-step "quick fix"
        (ed-goto (string-to-number (getenv "ED_SPOILED")) 0)
        (let* ((d (or (car (flymake-diagnostics (line-beginning-position) (line-end-position)))
                      (error "no flymake diagnostic on line %s (0-based) to fix" (getenv "ED_SPOILED"))))
               (actions (eglot-code-actions (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))
               (fix nil))
          (push "textDocument/codeAction" ed-steps)
          (ed-put 'code_actions (vconcat (mapcar (lambda (a) (plist-get a :title)) actions)))
          (dolist (a actions)
            (when (and (string-prefix-p "quickfix" (or (plist-get a :kind) ""))
                       (or (not fix) (eq (plist-get a :isPreferred) t)))
              (setq fix a)))
          (unless fix (error "textDocument/codeAction: no quickfix among %d actions" (length actions)))
          (ed-put 'applied_action (plist-get fix :title))
          (setq before ed-published)
          (eglot--read-execute-code-action (list fix) server "quickfix")
          (ed-flush)
          (ed-wait "diagnostics after the quick fix" (lambda () (> ed-published before)))))

      (ed-put 'text (buffer-substring-no-properties (point-min) (point-max)))
      (ed-put 'final_diagnostics (ed-diagnostics))
      ;; M-x eglot-shutdown: the `shutdown' request (eglot sends "params": null)
      ;; and the `exit' notification
      (let ((proc (jsonrpc--process server)))
        (ed-step "shutdown"
          (eglot-shutdown server))
        (ed-put 'exit_status (and (processp proc) (process-exit-status proc)))))))

(let ((status 0))
  (condition-case err
      (ed-run)
    (error (push (error-message-string err) (cdr (assq 'errors ed-out)))))
  (when (cdr (assq 'errors ed-out)) (setq status 1))
  (ed-put 'steps (vconcat (reverse ed-steps)))
  (setcdr (assq 'errors ed-out) (vconcat (reverse (cdr (assq 'errors ed-out)))))
  (with-temp-file (getenv "ED_OUT")
    (insert (json-encode ed-out)))
  (kill-emacs status))
