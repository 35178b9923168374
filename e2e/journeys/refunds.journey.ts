// Refunds and held accounts at 375 px (issue 26 item 3, decision 0423): an advertiser loads €10.00 on the
// sandbox acquirer's page and spends €5.00 of it on a top-up; an admin looks the load up by its payment id
// on the admin money screen and refunds all of it through the provider: her balance is -€5.00 and her
// account is held (the queue shows it). She sees why on Load Credits and cannot pay her cart; the admin
// cannot lift the hold while the balance is below zero; she loads €10.00, the admin lifts it, and her
// statement lists the refund.
import type { Page } from 'playwright-core';
import { expect, PHONE, test } from '../harness';
import { signInAsAdmin } from './admin-helpers';
import { fitsWidth, payByCard, startAsListedAdvertiser } from './advertiser-helpers';

test.use({ viewport: PHONE });

async function adminMoney(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/admin/money`);
  await page.getByTestId('admin-refund').waitFor();
}

test('refunds: a spent load refunded, the account held, then released @375x812', async ({ page, baseUrl, shot }) => {
  const me = await startAsListedAdvertiser(page, baseUrl, 'refund', 'Leeds');

  // €10.00 by card on the sandbox's page, then a €5.00 top-up from the balance.
  await page.goto(`${baseUrl}/edit/load/${me.id}`);
  await payByCard(page, '10', '4242 4242 4242 4242');
  await page.waitForURL(new RegExp(`/edit/load/${me.id}\\?payment=\\d+$`));
  const paymentId = Number(new URL(page.url()).searchParams.get('payment'));
  await page.getByTestId('payment-outcome').and(page.locator('[data-status="loaded"]')).waitFor();
  // The credited load's receipt is linked where she comes back, too (decision 0422).
  await expect(page.getByTestId('outcome-receipt')).toHaveAttribute(
    'href',
    `/api/payment/receipt/${paymentId}?lang=en`,
  );
  await page.goto(`${baseUrl}/checkout/cart?add=standard_topup`);
  await page.getByTestId('cart-item').and(page.locator('[data-product="standard_topup"]')).waitFor();
  await page.getByTestId('pay-balance').click();
  await page.getByTestId('payment-outcome').and(page.locator('[data-status="paid"]')).waitFor();

  // The admin, on a phone too, refunds the whole load through the provider.
  const adminContext = await page.context().browser()!.newContext({ viewport: PHONE, locale: 'en-GB' });
  const admin = await adminContext.newPage();
  const adminShot = (step: string) => admin.screenshot({ path: test.info().outputPath(`${step}.png`) });
  await signInAsAdmin(admin, baseUrl);
  await adminMoney(admin, baseUrl);
  const refund = admin.getByTestId('admin-refund');
  // A payment id no credited load has: said in the form, the screen stays (not the not-found page).
  await refund.getByLabel('Payment id').fill('999999');
  await refund.getByRole('button', { name: 'Look up' }).click();
  await refund.getByText('No credited load has this id.').waitFor();
  // (the catalogue's 404 would have navigated before the form's message showed)
  await expect(admin).toHaveURL(/\/admin\/money$/);
  await expect(admin.getByTestId('admin-held')).toBeVisible();
  await refund.getByLabel('Payment id').fill(`R-2026-${paymentId}`);
  await refund.getByRole('button', { name: 'Look up' }).click();
  const load = admin.getByTestId('admin-refund-load');
  await load.getByText(`Load #${paymentId} of user #${me.id}: €10.00 by card (sandbox)`).waitFor();
  await load.getByText('Left to refund: €10.00').waitFor();
  await expect(admin.getByTestId('admin-refund-via')).toHaveText('The refund goes through the provider now.');
  await load.getByLabel('Reason').fill('The advertiser asked for her money back');
  await adminShot('1-admin-refund-form');
  await fitsWidth(admin, 'the refund form');
  await load.getByRole('button', { name: 'Refund' }).click();
  await refund
    .getByRole('status')
    .getByText(`Refunded. Balance of #${me.id}: -€5.00; the account is on hold.`)
    .waitFor();
  await load.getByText('Left to refund: €0.00').waitFor();
  const held = admin.getByTestId(`held-${me.id}`);
  await held.getByText('balance below zero after a refund').waitFor();
  await expect(held).toContainText('-€5.00');
  await adminShot('2-admin-held-queue');
  await fitsWidth(admin, 'the held accounts queue');

  // She is told why on Load Credits and in her notices; her cart cannot be paid.
  await page.goto(`${baseUrl}/edit/load/${me.id}`);
  const note = page.getByTestId('hold-note');
  await note.getByText('Your account is on hold').waitFor();
  await note.getByText(/refunded after its credits were spent/).waitFor();
  await page.getByTestId('load-balance').getByText('-€5.00').waitFor();
  await shot('3-advertiser-held');
  await fitsWidth(page, '/edit/load while held');
  await page.goto(`${baseUrl}/checkout/cart?add=standard_topup`);
  await page.getByTestId('hold-note').waitFor();

  // Not lifted while below zero.
  await held.getByLabel('Why the hold is lifted').fill('Debt settled');
  await held.getByRole('button', { name: 'Lift the hold' }).click();
  const refused = admin.getByRole('alertdialog').or(admin.getByRole('dialog'));
  await refused.getByText('The balance is below zero: the hold can be lifted once it is settled.').waitFor();
  await adminShot('3b-release-refused');
  await refused.getByRole('button', { name: 'Close' }).last().click();
  await expect(held).toBeVisible();

  // She loads €10.00 (loading stays open while held); then the admin lifts the hold.
  await page.goto(`${baseUrl}/edit/load/${me.id}`);
  await payByCard(page, '10', '4242 4242 4242 4242');
  await page.waitForURL(new RegExp(`/edit/load/${me.id}\\?payment=\\d+$`));
  await page.getByTestId('load-balance').getByText('€5.00').waitFor();
  await adminMoney(admin, baseUrl);
  const again = admin.getByTestId(`held-${me.id}`);
  await again.getByLabel('Why the hold is lifted').fill('Debt settled');
  await again.getByRole('button', { name: 'Lift the hold' }).click();
  await admin.getByTestId('admin-held').getByText('No account is on hold.').waitFor();
  await adminContext.close();

  await page.goto(`${baseUrl}/edit/load/${me.id}`);
  await page.getByTestId('load-balance').getByText('€5.00').waitFor();
  await expect(page.getByTestId('hold-note')).toHaveCount(0);
  await page.goto(`${baseUrl}/transactions/${me.id}`);
  const refundRow = page.getByTestId('transaction').and(page.locator('[data-kind="refund"]'));
  await refundRow.getByText('-€10.00').waitFor();
  await expect(refundRow).toContainText('Refund');
  await shot('4-statement-with-refund');
});
