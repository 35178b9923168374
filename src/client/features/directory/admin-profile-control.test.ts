// The admin's control on a public profile (decision 0506): its label in every language, where it lies,
// and that the directory reaches it, and the admin code behind it, only through a lazy import, so a
// visitor's or an advertiser's first route carries none of it.
import fs from 'node:fs';
import path from 'node:path';
import { createElement } from 'react';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderWith, testI18n } from '#client/lib/test-i18n.ts';
import { AdminProfileControl } from './admin-profile-control';

let i18n: I18n;

beforeAll(async () => {
  i18n = await testI18n(['admin']);
});

async function render(lng: string, placement: 'page' | 'modal') {
  await i18n.changeLanguage(lng);
  return renderWith(i18n, createElement(AdminProfileControl, { userId: 42, placement }));
}

describe('AdminProfileControl', () => {
  it.each([
    ['en', 'Admin', 'Open the admin modal for this profile: verify, flag, warn'],
    ['de', 'Admin', 'Das Admin-Fenster dieses Profils öffnen: verifizieren, markieren, verwarnen'],
    ['es', 'Admin', 'Abrir la ventana de administración de este perfil: verificar, marcar, advertir'],
  ])('is a button labelled in %s, saying what it opens', async (lng, label, hint) => {
    const html = await render(lng, 'modal');
    expect(html).toMatch(/^<button type="button" class="button admin-profile-control admin-profile-control--modal"/);
    expect(html).toContain(`title="${hint}"`);
    expect(html).toContain('aria-haspopup="dialog"');
    expect(html).toMatch(new RegExp(`<span aria-hidden="true">⚑</span> ${label}</button>$`));
  });

  it('lies on the page in an anchor of no height (out of the flow), in the modal as the header button itself', async () => {
    expect(await render('en', 'page')).toMatch(
      /^<div class="admin-profile-control__anchor"><button [^>]*admin-profile-control--page/,
    );
    const css = fs.readFileSync(path.join(import.meta.dirname, 'admin-profile-control.css'), 'utf8');
    expect(css).toMatch(/\.admin-profile-control__anchor \{[^}]*position: relative;[^}]*height: 0;/);
    expect(css).toMatch(/\.admin-profile-control--page \{[^}]*position: absolute;/);
    // No taller than the profile modal's other header buttons (36 px, directory.css).
    expect(css).toMatch(/\.admin-profile-control--modal \{[^}]*height: 36px;/);
  });

  it('is reached only through a lazy import, and only it imports the admin feature', () => {
    const dir = import.meta.dirname;
    for (const file of fs.readdirSync(dir).filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts'))) {
      const source = fs.readFileSync(path.join(dir, file), 'utf8');
      const statics = [...source.matchAll(/^import [^;]*? from '([^']+)';/gms)].map((m) => m[1]);
      if (file !== 'admin-profile-control.tsx')
        expect(
          statics.filter((s) => /features\/admin|admin-profile-control/.test(s)),
          file,
        ).toEqual([]);
      if (file === 'profile-page.tsx' || file === 'profile-modal.tsx')
        expect(source, file).toContain("import('./admin-profile-control')");
    }
  });
});
