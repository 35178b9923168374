CREATE TABLE "city_names" (
	"city_id" integer NOT NULL,
	"lang" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "city_names_city_id_lang_pk" PRIMARY KEY("city_id","lang")
);
--> statement-breakpoint
CREATE TABLE "city_names_source" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"signature" text NOT NULL,
	CONSTRAINT "city_names_source_one_row" CHECK ("city_names_source"."id")
);
--> statement-breakpoint
ALTER TABLE "city_names" ADD CONSTRAINT "city_names_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER city_names_directory AFTER INSERT OR UPDATE OR DELETE ON "city_names" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE TRIGGER city_names_directory_truncate AFTER TRUNCATE ON "city_names" FOR EACH STATEMENT EXECUTE FUNCTION directory_bump();
