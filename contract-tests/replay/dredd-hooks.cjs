// Dredd loads this file through its Node.js hooks API (which injects `hooks`). It only
// hands each transaction to the functions the suite's replay phase put in Dredd's
// configuration (`custom.contractReplay`, replay/replay.ts): they fill in credentials
// and ids and note the answer. No check runs here. Plain CommonJS with no import, so
// Dredd can load it from the source tree and from the package alike, without a
// TypeScript loader.
const hooks = require('hooks');

const replay = hooks.configuration.custom.contractReplay;
// Dredd awaits a hook only when the hook takes `done`.
const each = (step) => (transaction, done) => {
  step(transaction).then(
    () => done(),
    () => done(),
  );
};

hooks.beforeEach(each(replay.beforeEach));
hooks.beforeEachValidation(each(replay.beforeEachValidation));
hooks.afterEach(each(replay.afterEach));
