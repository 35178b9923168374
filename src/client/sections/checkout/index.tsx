// Entry of the lazy "checkout" section: the payment screens of spec section 2 (/checkout/cart,
// /checkout/method, /transactions/{userID}) and /edit/load/{id}, all built in features/money.
import type { SectionProps } from '#client/lib/route-paths.ts';
import { ComingSoon } from '#client/components/coming-soon.tsx';
import { CartPage } from '#client/features/money/components/cart-page.tsx';
import { LoadPage } from '#client/features/money/components/load-page.tsx';
import { MethodPage } from '#client/features/money/components/method-page.tsx';
import { TransactionsPage } from '#client/features/money/components/transactions-page.tsx';

export function CheckoutSection({ route }: SectionProps) {
  switch (route) {
    case 'checkout-cart':
      return <CartPage />;
    case 'checkout-method':
      return <MethodPage />;
    case 'transactions':
      return <TransactionsPage />;
    case 'edit-load':
      return <LoadPage />;
    default:
      return <ComingSoon route={route} />;
  }
}
