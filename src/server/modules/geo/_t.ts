import { sql } from 'drizzle-orm';
import { openDatabase } from '#server/db/client';
import { buildGeoRows } from './geo-import';
import { cities, countries } from '#server/db/schema';
for (const mode of ['drizzle', 'json']) {
  const d = await openDatabase({});
  const rows = buildGeoRows();
  let t = performance.now();
  await d.db.transaction(async (tx) => {
    await tx.insert(countries).values(rows.countries);
    if (mode === 'drizzle') {
      for (let i = 0; i < rows.cities.length; i += 1000) await tx.insert(cities).values(rows.cities.slice(i, i + 1000));
    } else {
      for (let i = 0; i < rows.cities.length; i += 5000) {
        await tx.execute(sql`insert into cities (id, country_code, name, slug, lat, lng, timezone, population)
          select id, "countryCode", name, slug, lat, lng, timezone, population
          from jsonb_to_recordset(${JSON.stringify(rows.cities.slice(i, i + 5000))}::jsonb)
          as x(id int, "countryCode" text, name text, slug text, lat float8, lng float8, timezone text, population int)`);
      }
    }
  });
  console.log(mode, Math.round(performance.now() - t));
  await d.close();
}
