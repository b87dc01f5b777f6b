-- A visitor's cart merged at sign-in, by the id the browser chose when it started the merge (issue 32): the same
-- merge sent again (a reload while its answer was on its way) answers the first one's notes and adds nothing twice.
CREATE TABLE "cart_merges" (
	"user_id" uuid NOT NULL,
	"merge_id" uuid NOT NULL,
	"notes" jsonb NOT NULL,
	"merged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_merges_pkey" PRIMARY KEY("user_id","merge_id")
);
--> statement-breakpoint
ALTER TABLE "cart_merges" ADD CONSTRAINT "cart_merges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;