// Calls of the money screens (spec section 7 "Payment"; src/shared/schemas/money.ts) with their query
// hooks. The cart is held in the query cache as part of the payment data: every cart call (getCart,
// addToCart, removeCartItem, makePayment, getPayment) answers with the cart, and that answer replaces
// the held copy (spec section 7).
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { isLanguage } from '#shared/rules/language.ts';
import type {
  AddToCartBody,
  BankDetails,
  BankDetailsResponse,
  Cart,
  CartResponse,
  MakePaymentBody,
  PaymentData,
  PaymentDataResponse,
  PaymentResult,
  PaymentResultResponse,
  ProductsResponse,
  TransactionsPage,
} from '#shared/schemas/money.ts';
import { api, apiUrl } from '#client/lib/api.ts';

export type { BankDetails, Cart, MakePaymentBody, PaymentData, PaymentResult, ProductsResponse, TransactionsPage };

export const moneyKeys = {
  all: ['money'] as const,
  paymentData: ['money', 'payment-data'] as const,
  products: ['money', 'products'] as const,
  payment: (id: number) => ['money', 'payment', id] as const,
  transactionsAll: ['money', 'transactions'] as const,
  transactionsPage: (userId: number, page: number) => ['money', 'transactions', userId, page] as const,
  bank: (userId: number) => ['money', 'bank', userId] as const,
};

// ---------------------------------------------------------------- reads

export function usePaymentData() {
  return useQuery({
    queryKey: moneyKeys.paymentData,
    queryFn: async ({ signal }) => (await api<PaymentDataResponse>('/payment/getData', { signal })).data,
    staleTime: 0,
  });
}

export function useProducts() {
  return useQuery({
    queryKey: moneyKeys.products,
    queryFn: ({ signal }) => api<ProductsResponse>('/payment/products', { signal }),
  });
}

export function useBankDetails(userId: number) {
  return useQuery({
    queryKey: moneyKeys.bank(userId),
    queryFn: async ({ signal }) =>
      (await api<z.infer<typeof BankDetailsResponse>>(`/payment/getBankDetails/${userId}`, { signal })).data,
    enabled: Number.isInteger(userId) && userId > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useTransactions(userId: number, page: number) {
  return useQuery({
    queryKey: moneyKeys.transactionsPage(userId, page),
    queryFn: ({ signal }) =>
      api<TransactionsPage>('/payment/getTransactions', {
        method: 'POST',
        query: { page },
        body: { user_id: userId },
        signal,
      }),
    enabled: Number.isInteger(userId) && userId > 0,
    staleTime: 0,
    placeholderData: (previous) => previous,
  });
}

/** The CSV of every transaction of an account (a plain download: the session cookie authorises it). */
export const transactionsCsvUrl = (userId: number) => apiUrl('/payment/getTransactionsCsv', { user_id: userId });
/** A credited load's receipt, a printable page of the server in the reader's language (decision 0422). */
export const receiptUrl = (paymentId: number, lang: string) =>
  apiUrl(`/payment/receipt/${paymentId}`, { lang: isLanguage(lang) ? lang : undefined });

/** How often an open payment is asked about while the screen waits for it (crypto, confirmation step). */
export const PAYMENT_POLL_MS = 2000;

export const isOpen = (result: PaymentResult | undefined) =>
  !!result && (result.status === 'pending' || result.status === 'requires_action');

/** A payment followed until it is settled: polled while pending, then left alone. */
export function usePayment(paymentId: number | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: moneyKeys.payment(paymentId ?? 0),
    queryFn: async ({ signal }) => {
      const result = (await api<PaymentResultResponse>(`/payment/getPayment/${paymentId}`, { signal })).data;
      if (!isOpen(result)) settled(queryClient, result);
      else holdCart(queryClient, result.cart);
      return result;
    },
    enabled: !!paymentId,
    staleTime: 0,
    refetchInterval: (query) => (isOpen(query.state.data) ? PAYMENT_POLL_MS : false),
  });
}

// ---------------------------------------------------------------- the held cart

/** Replaces the held cart (and the balance and position it carries) with a call's answer. */
export function holdCart(queryClient: QueryClient, cart: Cart): void {
  queryClient.setQueryData<PaymentData>(moneyKeys.paymentData, (data) =>
    data ? { ...data, cart, balance: cart.balance, position: cart.position } : data,
  );
}

/** After money moved: the cart and everything that shows a balance, a statement or a position. */
function settled(queryClient: QueryClient, result: PaymentResult): void {
  holdCart(queryClient, result.cart);
  void queryClient.invalidateQueries({ queryKey: moneyKeys.paymentData });
  void queryClient.invalidateQueries({ queryKey: moneyKeys.transactionsAll });
  // Bought position shows in the directory lists and on the profile.
  void queryClient.invalidateQueries({ queryKey: ['directory'] });
  void queryClient.invalidateQueries({ queryKey: ['auto-topup'] });
}

// ---------------------------------------------------------------- writes

/**
 * A cart write's answer is the truth: a getData that was already on its way (the cart screen's own mount
 * refetches it) could come back after it with the cart as it was and put that on screen (seen in the money
 * journey: ?add=standard_topup left the cart empty). Such a read is cancelled before the write, and the
 * data read again after it.
 */
export function cartWrite(queryClient: QueryClient) {
  return {
    onMutate: () => queryClient.cancelQueries({ queryKey: moneyKeys.paymentData }),
    onSuccess: (cart: Cart) => holdCart(queryClient, cart),
    onSettled: () => queryClient.invalidateQueries({ queryKey: moneyKeys.paymentData }),
  };
}

export function useAddToCart() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AddToCartBody) =>
      (await api<CartResponse>('/payment/addToCart', { method: 'POST', body, loading: true })).data,
    ...cartWrite(queryClient),
  });
}

export function useRemoveCartItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uid: string) =>
      (await api<CartResponse>('/payment/removeCartItem', { method: 'POST', body: { uid }, loading: true })).data,
    ...cartWrite(queryClient),
  });
}

/**
 * makePayment. A 422 is left to the caller (`handle`), which shows it by its form's fields: a
 * declined card belongs next to the card, not in a dialog.
 */
export function useMakePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: MakePaymentBody) =>
      (await api<PaymentResultResponse>('/payment/makePayment', { method: 'POST', body, loading: true, handle: [422] }))
        .data,
    onSuccess: (result) => {
      queryClient.setQueryData(moneyKeys.payment(result.payment?.id ?? 0), result);
      if (isOpen(result)) holdCart(queryClient, result.cart);
      else settled(queryClient, result);
    },
  });
}

/** A fresh key for one intended payment: a retry of the same intent reuses it and never pays twice. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context; a plain-http deployment still has getRandomValues. Written as a UUID
  // (version 4) too: 32 bare hex digits hold a run the card guard reads as a card number about once in
  // 1,000 keys, a UUID's shape is known to be an identifier (decision 0811).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
