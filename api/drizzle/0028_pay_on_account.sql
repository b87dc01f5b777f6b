CREATE TABLE "company_terms" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"terms_days" integer NOT NULL,
	"credit_limit_cents" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "company_terms_days_check" CHECK ("company_terms"."terms_days" in (15, 30, 60)),
	CONSTRAINT "company_terms_limit_check" CHECK ("company_terms"."credit_limit_cents" between 0 and 100000000000)
);
--> statement-breakpoint
CREATE TABLE "invoice_counter" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"next" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "invoice_counter_one_row_check" CHECK ("invoice_counter"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"order_id" uuid,
	"part_name" text NOT NULL,
	"sku" text DEFAULT '' NOT NULL,
	"order_amount" integer NOT NULL,
	"unit_price_cents" bigint NOT NULL,
	"list_unit_price_cents" bigint NOT NULL,
	"break_min_units" integer,
	"total_cents" bigint NOT NULL,
	CONSTRAINT "invoice_lines_total_check" CHECK ("invoice_lines"."total_cents" = "invoice_lines"."unit_price_cents" * "invoice_lines"."order_amount")
);
--> statement-breakpoint
CREATE TABLE "invoice_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"received_on" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"recorded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_payments_amount_check" CHECK ("invoice_payments"."amount_cents" > 0),
	CONSTRAINT "invoice_payments_note_check" CHECK (length("invoice_payments"."note") <= 500),
	CONSTRAINT "invoice_payments_received_on_check" CHECK ("invoice_payments"."received_on" ~ '^\d{4}-\d{2}-\d{2}$')
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" integer NOT NULL,
	"company_id" uuid NOT NULL,
	"buyer_id" uuid,
	"company_name" text NOT NULL,
	"company_tax_id" text NOT NULL,
	"buyer_name" text NOT NULL,
	"buyer_email" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"payable_key" uuid NOT NULL,
	"terms_days" integer NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"total_cents" bigint NOT NULL,
	"paid_cents" bigint DEFAULT 0 NOT NULL,
	"paid_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	CONSTRAINT "invoices_number_check" CHECK ("invoices"."number" > 0),
	CONSTRAINT "invoices_total_check" CHECK ("invoices"."total_cents" > 0),
	CONSTRAINT "invoices_paid_check" CHECK ("invoices"."paid_cents" between 0 and "invoices"."total_cents"),
	CONSTRAINT "invoices_paid_at_check" CHECK (("invoices"."paid_at" is not null) = ("invoices"."paid_cents" = "invoices"."total_cents")),
	CONSTRAINT "invoices_terms_check" CHECK ("invoices"."terms_days" in (15, 30, 60))
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "company_terms" ADD CONSTRAINT "company_terms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_terms" ADD CONSTRAINT "company_terms_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_position_key" ON "invoice_lines" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE INDEX "invoice_lines_order_idx" ON "invoice_lines" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "invoice_payments_invoice_idx" ON "invoice_payments" USING btree ("invoice_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_payable_key" ON "invoices" USING btree ("payable_key");--> statement-breakpoint
CREATE INDEX "invoices_company_idx" ON "invoices" USING btree ("company_id","number" desc);--> statement-breakpoint
CREATE INDEX "invoices_buyer_idx" ON "invoices" USING btree ("buyer_id","number" desc);--> statement-breakpoint
CREATE INDEX "invoices_open_idx" ON "invoices" USING btree ("due_at") WHERE "invoices"."paid_at" is null;--> statement-breakpoint
INSERT INTO "invoice_counter" ("id", "next") VALUES (1, 1) ON CONFLICT DO NOTHING;