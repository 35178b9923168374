// The card-number guard of the money routes (decision 0400) is now the app's, for every route
// (plugins/card-guard.ts, decision 0810); money.routes.ts and auto-topup.routes.ts still name it.
export { refuseCardNumbers } from '../../plugins/card-guard';
export { maskCardNumbers, urlForLog } from '../../lib/card-numbers';
