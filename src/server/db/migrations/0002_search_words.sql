CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL,
	"profiles" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_words_trgm" ON "search_words" USING gin ("word" gin_trgm_ops);