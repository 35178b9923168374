// The auth feature's public entry: what other features may use of it (decision 0920).
export {
  useConnectAccount,
  useLinkedAccounts,
  useResendVerification,
  useSwitchAccount,
  useUnlinkAccount,
  type LinkedAccount,
} from './api';
export { NewPasswordField, UsernameField } from './account-fields';
