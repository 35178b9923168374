// What the shell shows an admin only (spec section 2): the admin search box and the admin modal's host
// with the flag event refresh. One chunk, loaded once the user data says admin (signed-in-parts.ts).
export { AdminSearchBox } from '#client/components/admin-search-box.tsx';
export { AdminModalHost } from '#client/features/admin/admin-modal-host.tsx';
