// A cart write's answer wins over a read of the payment data that was already on its way (the money
// journey once saw ?add=standard_topup leave the cart empty: the cart screen's mount refetched getData,
// and its older answer landed after addToCart's).
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { cartWrite, moneyKeys } from './api';

type Data = {
  cart: { items: string[]; balance: number; position: number | null };
  balance: number;
  position: number | null;
};
const empty = { items: [], balance: 0, position: null };
const withTopup = { items: ['standard_topup'], balance: 0, position: null };

describe('cart writes and a read in flight', () => {
  it('keeps the write answer when an older read comes back after it', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData<Data>(moneyKeys.paymentData, { cart: empty, balance: 0, position: null });
    let answerRead!: (data: Data) => void;
    const read = client
      .fetchQuery<Data>({
        queryKey: moneyKeys.paymentData,
        queryFn: () => new Promise<Data>((resolve) => (answerRead = resolve)),
        staleTime: 0,
      })
      .catch(() => null);
    const write = new MutationObserver(client, {
      mutationFn: async () => withTopup as never,
      ...cartWrite(client),
    });
    await write.mutate(undefined as never);
    // The read started before the write answers now, with the cart as it was.
    answerRead({ cart: empty, balance: 0, position: null });
    await read;
    expect(client.getQueryData<Data>(moneyKeys.paymentData)?.cart.items).toEqual(['standard_topup']);
  });
});
