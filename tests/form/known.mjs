// known.mjs - checks that fail because of a known bug of the form (reported in
// /work/notes/form-bugs.md while issue 12 is built). They still run; a failure
// prints "known failure: ..." instead of failing the suite (harness.mjs test());
// FORM_STRICT=1 runs them as ordinary tests. Keyed by the start of the test name.
export const KNOWN = {
  // issue 36 item 12: the steps after the sliced read still run as one task
  // each: the check of 100,000 keys (rules interpreter), the preview, the pins
  // and the merge (form_io.js importText); 0.2-1.5 s each on 100,000 entries
  "H import of 100,000 map entries": "a step of the import runs over 200 ms (the check, the preview, the pins, the merge)",
  "H import of 100,000 unknown keys": "a step of the import runs over 200 ms (the check of 100,000 unexpected keys, the preview, the pins, the merge)",
};
