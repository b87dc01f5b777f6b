import { sql } from 'drizzle-orm';
import { migrationsBefore, upgrade } from './support/migrationsBefore';

/**
 * Migrations that change data, each on a database that has lived before it. 0006 (issue 11): the orders unpaid
 * at the upgrade get an hour to be paid from then, and the test gateway's earlier intents are put on the books
 * (gateway_intents) as recorded, refunded, or open and due for the reconciliation sweep at once. 0012 (issue 10):
 * a stored picture whose path leaves /images/ is cleared.
 */

describe('migration 0006 on a database from before it', () => {
  const before = migrationsBefore('0006_unpaid_order_expiry');

  it('gives unpaid orders an hour from the upgrade and books the earlier test intents', async () => {
    await upgrade(
      before,
      async (db) => {
        await db.execute(sql`
        insert into parts (id, name, description, price_cents, min_order, available)
        values ('00000000-0000-4000-8000-000000000001', 'Old part', 'Before 0006.', 500, 1, 100)`);
        await db.execute(sql`
        insert into orders (id, email, name, phone, part_id, part_name, order_amount, unit_price_cents, total_cents,
                            status, transaction_id, created_at)
        values
          ('00000000-0000-4000-8000-0000000000a1', 'a@old.test', 'A', '01712345678',
           '00000000-0000-4000-8000-000000000001', 'Old part', 2, 500, 1000, 'unpaid', null, now() - interval '3 days'),
          ('00000000-0000-4000-8000-0000000000a2', 'b@old.test', 'B', '01712345678',
           '00000000-0000-4000-8000-000000000001', 'Old part', 2, 500, 1000, 'paid', 'pi_test_paid', now() - interval '2 days'),
          ('00000000-0000-4000-8000-0000000000a3', 'c@old.test', 'C', '01712345678',
           '00000000-0000-4000-8000-000000000001', 'Old part', 2, 500, 1000, 'unpaid', null, now() - interval '1 day')`);
        await db.execute(sql`
        insert into payments (order_id, email, part_name, transaction_id, amount_cents, gateway)
        values ('00000000-0000-4000-8000-0000000000a2', 'b@old.test', 'Old part', 'pi_test_paid', 1000, 'test')`);
        await db.execute(sql`
        insert into test_payment_intents (id, client_secret, amount_cents, status, order_id, refunded_at)
        values
          ('pi_test_paid', 's1', 1000, 'succeeded', '00000000-0000-4000-8000-0000000000a2', null),
          ('pi_test_charged', 's2', 1000, 'succeeded', '00000000-0000-4000-8000-0000000000a1', null),
          ('pi_test_refunded', 's3', 1000, 'succeeded', '00000000-0000-4000-8000-0000000000a9', now()),
          ('pi_test_open', 's4', 1000, 'requires_payment_method', '00000000-0000-4000-8000-0000000000a3', null)`);
      },
      async (db) => {
        const orders = (
          await db.execute<{ id: string; status: string; in_minutes: number }>(sql`
          select id, status, round(extract(epoch from expires_at - now()) / 60)::int as in_minutes
          from orders order by id`)
        ).rows;
        expect(orders).toEqual([
          { id: '00000000-0000-4000-8000-0000000000a1', status: 'unpaid', in_minutes: 60 },
          { id: '00000000-0000-4000-8000-0000000000a2', status: 'paid', in_minutes: 60 },
          { id: '00000000-0000-4000-8000-0000000000a3', status: 'unpaid', in_minutes: 60 },
        ]);
        const booked = (
          await db.execute<{ id: string; status: string; succeeded: boolean; due: boolean; settled: boolean }>(sql`
          select id, status, succeeded_at is not null as succeeded, next_check_at <= now() as due,
                 settled_at is not null as settled
          from gateway_intents order by id`)
        ).rows;
        expect(booked).toEqual([
          { id: 'pi_test_charged', status: 'open', succeeded: true, due: true, settled: false },
          { id: 'pi_test_open', status: 'open', succeeded: false, due: true, settled: false },
          { id: 'pi_test_paid', status: 'recorded', succeeded: true, due: true, settled: true },
          { id: 'pi_test_refunded', status: 'refunded', succeeded: true, due: true, settled: true },
        ]);
      },
    );
  });
});

describe('migration 0012 on a database from before it', () => {
  const before = migrationsBefore('0012_image_paths_stay_under_images');

  it('clears stored pictures whose path leaves /images/ and keeps every other', async () => {
    await upgrade(
      before,
      async (db) => {
        const pictures = [
          '/images/parts/brake-pad.svg',
          'https://images.example.test/a/../b.png',
          '/images/../api/users',
          '/images/parts/../../api/users',
          '/images//x.png',
          '',
        ];
        for (const [i, picture] of pictures.entries()) {
          await db.execute(sql`
          insert into parts (name, description, price_cents, min_order, available, image)
          values (${`Part ${i}`}, 'Before 0012.', 500, 1, 100, ${picture})`);
          await db.execute(sql`
          insert into users (firebase_uid, email, avatar) values (${`uid-${i}`}, ${`u${i}@old.test`}, ${picture})`);
        }
      },
      async (db) => {
        const kept = ['/images/parts/brake-pad.svg', 'https://images.example.test/a/../b.png', '', '', '', ''];
        const parts = (await db.execute<{ image: string }>(sql`select image from parts order by name`)).rows;
        const users = (await db.execute<{ avatar: string }>(sql`select avatar from users order by firebase_uid`)).rows;
        expect(parts.map((p) => p.image)).toEqual(kept);
        expect(users.map((u) => u.avatar)).toEqual(kept);
      },
    );
  });
});
