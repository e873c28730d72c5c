// The agent's discoverable tools of every file, by name (their order is never shown: they are not listed).
//
// Conventions for every tool in ./credit-cards.ts and ./bank-accounts.ts:
// - Declaration: an entry of `defineDiscoverableTools` keyed by the reference method name, with its tag
//   (`type`, plus `mutatesState` only where the decorator overrides it), `doc` = the docstring exactly as
//   `inspect.getdoc` returns it (unlock shows it), `params` = the Python signature via `signature(required,
//   optional)`, and `run(db, args)`.
// - Argument binding: `run` receives every parameter bound, defaults filled in, values raw as the model sent
//   them. Through call_discoverable_agent_tool every JSON number is a float (PyFloat), even `33`; called by
//   name, ints stay ints. Nothing is validated beyond what the reference checks.
// - Python values: `truthy` (python-args) for `if not x`, `isOneOf` for `x in [...]`, `fieldOr` for
//   `record.get(k, default)`, `isRecordId` for `key in db.<table>.data`, `pyStr` for f-string interpolation, `pyRepr` for lists in messages,
//   `pyFormatFixed(x, 2)` for `{x:.2f}`, `pyToFloat` for `float(x)`, `pyTitle` for `.title()`,
//   `dumpsPy(v, { indent: 2 })` for `json.dumps(v, indent=2)` (all from src/core/py).
// - Errors: a message the reference returns (`return "Error: …"`) is returned as a string. An exception the
//   reference raises is thrown as `new PyError(pythonType, str(exc))`: a TypeError becomes "Error: Invalid
//   arguments: …" in call_discoverable_agent_tool, any other one an error tool message. Do not use the
//   python-args helpers that throw ToolError for what Python raises as a TypeError (pyLen, iterate, …) without
//   rethrowing it as PyError('TypeError', message).
// - Tests: add cases to test/fixtures/banking-tool-cases-<file>.json (see test/fixtures/README.md); the test in
//   test/domains/banking_knowledge/tools.test.ts runs every such file.
// - Writes: only through db_query (`addToDb`, `updateRecordInDb`), in the reference's order;
//   records are plain objects whose key order is the reference's.
import { bankAccountTools } from './bank-accounts.ts';
import { creditCardTools } from './credit-cards.ts';
import type { DiscoverableTools } from './declare.ts';
import type { TransactionalDB } from '../data_model.ts';

export const agentDiscoverableTools: DiscoverableTools<TransactionalDB> = { ...creditCardTools, ...bankAccountTools };
