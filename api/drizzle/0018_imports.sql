CREATE TABLE "import_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'receiving' NOT NULL,
	"created_by" uuid,
	"file_name" text DEFAULT '' NOT NULL,
	"header" text[],
	"chunks_received" integer DEFAULT 0 NOT NULL,
	"lines_received" integer DEFAULT 0 NOT NULL,
	"rows_received" integer DEFAULT 0 NOT NULL,
	"phase" text DEFAULT '' NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"rows_rejected" integer DEFAULT 0 NOT NULL,
	"inserted" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "import_jobs_kind_check" CHECK ("import_jobs"."kind" in ('vehicles', 'parts', 'numbers', 'fitment', 'supersessions')),
	CONSTRAINT "import_jobs_status_check" CHECK ("import_jobs"."status" in ('receiving', 'queued', 'running', 'succeeded', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "import_rejections" (
	"job_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"column" text NOT NULL,
	"value" text NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "import_rejections_pkey" PRIMARY KEY("job_id","line")
);
--> statement-breakpoint
-- Staging: rows wait here only while their job runs, and a crash fails the job anyway (nothing to keep).
CREATE UNLOGGED TABLE "import_rows" (
	"job_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"values" text[] NOT NULL,
	CONSTRAINT "import_rows_pkey" PRIMARY KEY("job_id","line")
);
--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rejections" ADD CONSTRAINT "import_rejections_job_id_import_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."import_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_job_id_import_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."import_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_jobs_status_idx" ON "import_jobs" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "import_jobs_created_idx" ON "import_jobs" USING btree ("created_at");