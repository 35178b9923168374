// The admin feature's public entry: what other features may use of it (decision 0920). The admin modal
// opens through its store; the shell's host renders it, loading its code on the first open (0505).
export { openAdminModal } from './admin-modal-store';
