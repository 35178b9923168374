// Imperative API of the dialogs (spec sections 2 and 4): the notification dialog, the
// validation-error dialog, the confirm dialog and the login modal. Anything, including the API
// client, can raise them; <DialogHost/> renders whatever is current.
import type { NotificationBody, ValidationErrorBody } from '#shared/api/errors.ts';
import { createStore, useStore } from './store';

export type NotificationIcon = NonNullable<NotificationBody['icon']>;

export interface NotificationOptions {
  /** Defaults to the generic notification title. */
  title?: string;
  /** Plain text, shown as text: React escapes it. */
  message: string;
  /** The message is HTML from our own server (spec: "message (HTML allowed)"), marked so by the server. */
  html?: boolean;
  icon?: NotificationIcon;
  /** Each button is shown only when it has a text. */
  ok?: string;
  cancel?: string;
  /** After OK: go to this path (a full load when reload is set). */
  path?: string;
  /** After OK: reload the page (or load `path` fully). */
  reload?: boolean;
}

export interface ConfirmOptions {
  title: string;
  message?: string;
  confirm?: string;
  cancel?: string;
}

interface Pending<T> {
  options: T;
  resolve: (value: boolean) => void;
}

export interface DialogState {
  notification: Pending<NotificationOptions> | null;
  validation: ValidationErrorBody | null;
  confirm: Pending<ConfirmOptions> | null;
  login: boolean;
}

export const dialogStore = createStore<DialogState>({
  notification: null,
  validation: null,
  confirm: null,
  login: false,
});

export const useDialogs = () => useStore(dialogStore);

/** Shows the notification dialog; resolves true when OK was pressed, false otherwise. */
export function notify(options: NotificationOptions): Promise<boolean> {
  return new Promise((resolve) => {
    // One notification at a time: a newer one replaces (and dismisses) the older.
    dialogStore.get().notification?.resolve(false);
    dialogStore.set((s) => ({ ...s, notification: { options, resolve } }));
  });
}

export function closeNotification(confirmed: boolean): NotificationOptions | undefined {
  const current = dialogStore.get().notification;
  if (!current) return undefined;
  dialogStore.set((s) => ({ ...s, notification: null }));
  current.resolve(confirmed);
  return current.options;
}

export function showValidationErrors(body: ValidationErrorBody): void {
  dialogStore.set((s) => ({ ...s, validation: body }));
}

export function closeValidationErrors(): void {
  dialogStore.set((s) => ({ ...s, validation: null }));
}

/** Spec section 4: resolves true on confirm and false on cancel (Escape and outside click cancel). */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    dialogStore.get().confirm?.resolve(false);
    dialogStore.set((s) => ({ ...s, confirm: { options, resolve } }));
  });
}

export function settleConfirm(value: boolean): void {
  const current = dialogStore.get().confirm;
  if (!current) return;
  dialogStore.set((s) => ({ ...s, confirm: null }));
  current.resolve(value);
}

export function openLoginModal(): void {
  dialogStore.set((s) => ({ ...s, login: true }));
}

export function closeLoginModal(): void {
  dialogStore.set((s) => ({ ...s, login: false }));
}
