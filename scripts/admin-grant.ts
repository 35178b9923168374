// `npm run admin:grant -- EMAIL`: gives an existing account the admin role and records it in the
// audit log (actor: none, the command line). Uses DATABASE_URL, else the PGlite under <DATA_DIR>/db.
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { DatabaseLockedError, openDatabase } from '../src/server/db/client';
import { accounts, auditLog } from '../src/server/db/schema';
import { loadEnv } from '../src/server/env';

const email = process.argv
  .slice(2)
  .find((a) => !a.startsWith('-'))
  ?.trim();
if (!email) {
  console.error('Usage: npm run admin:grant -- EMAIL');
  process.exit(1);
}

const env = loadEnv();
let database;
try {
  database = await openDatabase({ url: env.DATABASE_URL, pgliteDir: path.join(env.dataDir, 'db') });
} catch (err) {
  if (err instanceof DatabaseLockedError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

let code = 0;
try {
  const outcome = await database.db.transaction(async (tx) => {
    const [account] = await tx
      .select({
        id: accounts.id,
        email: accounts.email,
        username: accounts.username,
        role: accounts.role,
        status: accounts.status,
      })
      .from(accounts)
      .where(sql`lower(${accounts.email}) = ${email.toLowerCase()}`)
      .for('update');
    if (!account || account.status === 'deleted') return { kind: 'missing' as const };
    if (account.role === 'admin') return { kind: 'already' as const, account };
    await tx.update(accounts).set({ role: 'admin' }).where(eq(accounts.id, account.id));
    await tx.insert(auditLog).values({
      actorId: null,
      action: 'admin.grant',
      targetUserId: account.id,
      data: { email: account.email, previousRole: account.role, via: 'cli' },
    });
    return { kind: 'granted' as const, account };
  });
  if (outcome.kind === 'missing') {
    console.error(`No account with the email ${email}.`);
    code = 1;
  } else if (outcome.kind === 'already') {
    console.log(
      `${outcome.account.email} (${outcome.account.username}, id ${outcome.account.id}) is already an admin.`,
    );
  } else {
    const note =
      outcome.account.status === 'suspended' ? ' The account is suspended: it cannot sign in until reinstated.' : '';
    console.log(
      `${outcome.account.email} (${outcome.account.username}, id ${outcome.account.id}) is now an admin.${note}`,
    );
  }
} finally {
  await database.close();
}
process.exit(code);
